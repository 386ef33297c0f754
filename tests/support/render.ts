import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server';

/**
 * A route component's HTML for the given loader data (and the action's answer, when a test renders the
 * form a failed post shows again), as the server renders it at `url`. The one render helper of the web
 * tests (decision 063). Only the markup: not the hydration script (it repeats the loader data), nor
 * React's "Day <!-- -->1" text markers.
 */
export async function renderPage(
  Component: ComponentType,
  loaderData: unknown,
  url = 'http://localhost/page',
  actionData?: unknown,
): Promise<string> {
  const handler = createStaticHandler([{ id: 'page', path: '*', Component, loader: () => loaderData as object }]);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error('unexpected redirect');
  if (actionData !== undefined) context.actionData = { page: actionData };
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false })).replaceAll('<!-- -->', '');
}

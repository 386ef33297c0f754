import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server';

/** A route component's HTML for the given loader data, as the server renders it (no hydration script). */
export async function renderPage(Component: ComponentType, loaderData: unknown, url = 'http://localhost/page'): Promise<string> {
  const handler = createStaticHandler([{ id: 'page', path: '*', Component, loader: () => loaderData as object }]);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false })).replaceAll('<!-- -->', '');
}

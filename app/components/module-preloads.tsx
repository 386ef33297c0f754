import { useContext, useState } from 'react';
import { UNSAFE_RemixContext, useMatches } from '@remix-run/react';

/**
 * The page's JavaScript modules, preloaded at low priority ahead of the identical high-priority
 * `<link rel="modulepreload">` tags that Remix's <Scripts> renders after it. The browser fetches each
 * module once (its module map is keyed by URL), so the first tag sets the priority: on a slow phone
 * link, the HTML's own content (the first cover image above all) gets the bandwidth before ~90 KB of
 * React and Remix, which only enhance a page that already works. Decision 025.
 *
 * The list is the one <Scripts> preloads (remix 2.17): the entry module and its imports, then every
 * matched route's imports and module. It is worked out once: after hydration Remix loads the next
 * routes itself, and these tags must stay what the server rendered.
 */
export function LowPriorityModulePreloads() {
  const remix = useContext(UNSAFE_RemixContext);
  const matches = useMatches();
  const [hrefs] = useState(() => {
    if (!remix) return [];
    const { manifest } = remix;
    const routes = matches.flatMap((m) => {
      const route = manifest.routes[m.id];
      return route ? [...(route.imports ?? []), route.module] : [];
    });
    return [...new Set([manifest.entry.module, ...manifest.entry.imports, ...routes])];
  });
  return (
    <>
      {hrefs.map((href) => (
        // React 18 does not know fetchPriority (19 does); the lowercase attribute passes through as it is.
        <link key={href} rel="modulepreload" href={href} {...{ fetchpriority: 'low' }} />
      ))}
    </>
  );
}

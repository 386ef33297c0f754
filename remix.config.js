/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.*'],
  serverModuleFormat: 'esm',
  serverDependenciesToBundle: ['remix-utils', /^remix-utils\/.*/],
  // `npm run dev` rebuilds contract/dist on change; the browser bundle holds it, so remix watch rebuilds too.
  watchPaths: ['contract/dist'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};

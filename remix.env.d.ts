/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single fetch (v3_singleFetch in remix.config.js): loaders may return data() and useLoaderData infers it.
declare module '@remix-run/server-runtime' {
  interface Future {
    v3_singleFetch: true;
  }
}

export {};

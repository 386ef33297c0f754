# One image, four roles (decisions 027, 044): ROLE=both (default: gateway, web app and notification worker in
# one container, as `npm start`), ROLE=web, ROLE=gateway, or ROLE=worker (notifications only, lowest CPU
# priority, /healthz on loopback). docker-compose.yml runs them as separate services on PostgreSQL.
# Node 24 LTS here; the code also runs on Node 20 (engines >=20.9), where we develop and test.
# `npm run check:image` replays the runtime stage below without a container engine: keep its steps plain.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Toolchain for native addons when no prebuilt binary fits (better-sqlite3, argon2; sharp ships its own).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The workspace packages' manifests (decisions 035, 038), so that npm links node_modules/@custom-room/* to them.
COPY contract/package.json ./contract/package.json
COPY toolkit/package.json ./toolkit/package.json
# The fixes `npm install` applies to dependencies (its postinstall runs patch-package, decision 078).
COPY patches ./patches
# `npm install`, not `npm ci`: the lockfile is made on a machine whose registry lacks some platforms'
# optional @rollup/rollup-* packages, so it cannot list them and `npm ci` cannot pass with it.
# With the lockfile present, `npm install` keeps its pinned versions and fills in only what is missing.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    ROLE=both \
    DATA_DIR=/data \
    PORT=3000 \
    GATEWAY_PORT=4000 \
    GATEWAY_HOST=0.0.0.0
WORKDIR /app
# Owned by root: the app cannot rewrite its own code; only /data is writable.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/gateway/dist ./gateway/dist
# The CJK subset of the share images (decision 056); the other fonts are npm packages in node_modules.
COPY --from=build /app/gateway/fonts ./gateway/fonts
# node_modules/@custom-room/* link here: the gateway imports their built code (the web build bundles them).
COPY --from=build /app/contract/package.json ./contract/package.json
COPY --from=build /app/contract/dist ./contract/dist
COPY --from=build /app/toolkit/package.json ./toolkit/package.json
COPY --from=build /app/toolkit/dist ./toolkit/dist
COPY --from=build /app/scripts/start.mjs ./scripts/start.mjs
# start.mjs's own helpers: readable log lines in a terminal, stopping its children when its parent goes away.
COPY --from=build /app/scripts/lib/log-lines.mjs /app/scripts/lib/processes.mjs /app/scripts/lib/web-process.mjs ./scripts/lib/
COPY --from=build /app/scripts/healthcheck.mjs ./scripts/healthcheck.mjs
COPY --from=build /app/scripts/backup-sqlite.mjs ./scripts/backup-sqlite.mjs
RUN mkdir -p /data && chown node:node /data
VOLUME /data
# 3000: web app (ROLE both or web); 4000: gateway (ROLE gateway; under ROLE both it listens on loopback only).
EXPOSE 3000 4000
USER node
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
CMD ["node", "scripts/start.mjs"]

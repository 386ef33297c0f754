# Mirrors `npm start`: one container runs the gateway and the web app (scripts/start.mjs).
# For separate containers, override the command with `npm run start:gateway` or `npm run start:web`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data PORT=3000 GATEWAY_PORT=4000
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/gateway/dist ./gateway/dist
COPY --from=build /app/scripts/start.mjs ./scripts/start.mjs
COPY --from=build /app/server.mjs ./server.mjs
RUN mkdir -p /data && chown node:node /data
VOLUME /data
EXPOSE 3000
USER node
CMD ["node", "scripts/start.mjs"]

# syntax=docker/dockerfile:1
# fundbot: multi-stage build. The runtime image holds only compiled JavaScript,
# production dependencies and a non-root user; state lives in the /data volume.

ARG NODE_IMAGE=node:24-bookworm-slim

# --- dependencies: sqlite3 compiles from source, so the toolchain stays in this stage
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# --- build: compile TypeScript to dist/
FROM deps AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
RUN npx tsc -p tsconfig.build.json

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    FUNDBOT_STORE=sqlite:///data/fundbot.sqlite \
    FUNDBOT_CONFIG=/config/fundbot.config.json \
    PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data /config && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]

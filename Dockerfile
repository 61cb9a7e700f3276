# syntax=docker/dockerfile:1
# fundbot: multi-stage build. The runtime image holds only compiled JavaScript,
# production dependencies (no tsx, no esbuild, no compiler) and a non-root user;
# state lives in the /app/data volume.
#
# Node 24 is the image's runtime (an LTS line); the code is also tested on Node 20.18+ (package.json engines).
ARG NODE_IMAGE=node:24-bookworm-slim

# --- dependencies: sqlite3 may compile from source, so the toolchain stays in this stage
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# --- build: compile TypeScript to dist/ with the dev dependencies, which stay in this stage
FROM deps AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
RUN npm run build

# --- runtime
FROM ${NODE_IMAGE} AS runtime
# Fonts for the funding chart (@napi-rs/canvas draws text with the system's fonts).
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core fontconfig \
 && rm -rf /var/lib/apt/lists/*
# No FUNDBOT_STORE and no PORT here: they would silently override store.url and http.port of the mounted config.
# FUNDBOT_CONTAINER makes a missing config an error that says how to mount one (instead of the demo).
# FUNDBOT_HEALTH_HOST: inside a container the health server must listen on every interface to be reachable.
ENV NODE_ENV=production \
    FUNDBOT_CONFIG=/config/fundbot.config.json \
    FUNDBOT_CONTAINER=docker \
    FUNDBOT_HEALTH_HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The config default store.url is sqlite://./data/fundbot.sqlite, i.e. /app/data: the volume.
RUN mkdir -p /app/data /config && chown node:node /app/data
USER node
VOLUME ["/app/data"]
# http.port's default (health and metrics).
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]

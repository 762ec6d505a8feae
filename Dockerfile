# The reference agent service. Build and run:
#   docker build -t agent-service:0.1.0 .
#   docker run --read-only --tmpfs /tmp -v agent-data:/data -p 3000:3000 \
#     -e AUTH_JWT_SECRET="$(openssl rand -hex 32)" agent-service:0.1.0
# The container writes only /tmp and DATA_DIR (/data, the embedded SQLite store, unused when
# DATABASE_URL is set), so it runs with a read-only root filesystem.

# ---- build: compile TypeScript, then drop the dev dependencies -------------------------------
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
# No compiler: better-sqlite3 ships Node-API prebuilds for linux-x64 and linux-arm64.
# Manifests first (the service's and the library workspace's), so the dependency layer is cached
# until the lockfile changes.
COPY package.json package-lock.json ./
COPY packages/nest-agent-graceful-shutdown/package.json ./packages/nest-agent-graceful-shutdown/
RUN npm ci
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
# The library's dual build: its script and the tsconfig of each pass (CommonJS, then ES modules).
COPY packages/nest-agent-graceful-shutdown/build.mjs packages/nest-agent-graceful-shutdown/tsconfig.json \
     packages/nest-agent-graceful-shutdown/tsconfig.build.json packages/nest-agent-graceful-shutdown/tsconfig.build.esm.json \
     ./packages/nest-agent-graceful-shutdown/
COPY packages/nest-agent-graceful-shutdown/src ./packages/nest-agent-graceful-shutdown/src
COPY src ./src
COPY console ./console
# The library first (the service imports its build), then the service, then the console page
# (bundled into dist/console; served only with CONSOLE_ENABLED=true in production). The
# better-sqlite3 binding survives the prune: it is a production dependency.
RUN npm run build -w nest-agent-graceful-shutdown \
 && npx nest build \
 && npm run build:console \
 && npm prune --omit=dev

# ---- runtime ---------------------------------------------------------------------------------
FROM node:24.21.0-bookworm-slim
# tini is PID 1: it forwards SIGTERM to node (which starts the graceful shutdown) and reaps
# zombies. As PID 1, node would ignore every signal it has no handler for (the kernel gives PID 1
# no default actions); npm as PID 1 would not forward SIGTERM reliably.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root and read-only for the service: it never writes its own code.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
# node_modules/nest-agent-graceful-shutdown links to the workspace: its manifest and build only.
COPY --from=build /app/packages/nest-agent-graceful-shutdown/package.json ./packages/nest-agent-graceful-shutdown/package.json
COPY --from=build /app/packages/nest-agent-graceful-shutdown/dist ./packages/nest-agent-graceful-shutdown/dist
COPY --from=build /app/dist ./dist
# DATA_DIR must be writable by the service's user; mount a volume there to keep the SQLite file.
RUN mkdir /data && chown 1000:1000 /data
# The image's `node` user, by number, so Kubernetes' runAsNonRoot can check it without /etc/passwd.
USER 1000:1000
EXPOSE 3000
# No HEALTHCHECK: Kubernetes ignores it; the Helm chart and k8s/ manifests probe /health/live and
# /health/ready. Migrations run at boot; to run them ahead: node dist/app/database/migrate.js
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]

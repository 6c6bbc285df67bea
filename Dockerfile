# muster in a container: `docker build -t muster .`, then `docker run --rm muster run reserves`.
# The Kubernetes, AWS Batch, Cloud Run and Nomad examples in docs/cluster.md run this image.

# Build: the TypeScript compiler is a devDependency, so dist/ is made here and copied out.
FROM node:20-slim AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json ./
COPY scripts/write-entry.mjs scripts/write-entry.mjs
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY src src
COPY reports reports
COPY workers workers
COPY scripts scripts
RUN npm run build

# Run: production dependencies only, as a user without root.
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /opt/muster
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /build/dist dist
COPY docs docs
# The calculator's Edit opens the rules' step-form ports from here (muster app bundles them).
COPY examples/rules examples/rules
COPY README.md ./
RUN ln -s /opt/muster/dist/cli.js /usr/local/bin/muster
# The node image's own unprivileged user (uid 1000); shards and checkpoints go to a mounted folder.
USER node
WORKDIR /home/node
ENTRYPOINT ["muster"]
CMD ["--help"]

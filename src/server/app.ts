import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import helmet, { type HelmetOptions } from 'helmet';
import { DomainError } from '../domain/errors.js';
import type { AppContext } from '../services/context.js';
import { servicesOf } from '../services/index.js';
import { storageFault } from '../services/storage-faults.js';
import { version } from '../version.js';
import { type RouteEntry, registerAccess } from './access.js';
import { Problem, type ProblemCode, problemBody, problemOf } from './problems.js';
import { registerRoutes } from './routes/index.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface ServerOptions {
  /** Pino logger settings; false silences request logs (tests). */
  logger?: boolean | { level: string };
}

/**
 * Fastify's trustProxy from ours: a hop count trusts that many hops nearest the server (what proxy-addr does with
 * a number), a list trusts those proxies only; never `true`, which would let any peer name its own address.
 */
function trustedProxies(trust: AppContext['config']['server']['trustProxy']) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/** Builds the HTTP server over a context: routes, OpenAPI, problem+json errors, security headers, the web app. */
export async function buildServer(ctx: AppContext, options: ServerOptions = {}): Promise<App> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: typeof options.logger === 'object' ? options.logger.level : ctx.config.log.level,
            // Paths only: query strings carry names searched for, and names are personal data.
            serializers: {
              req: (req) => ({ method: req.method, path: req.url.split('?')[0], id: req.id }),
              res: (res) => ({ statusCode: res.statusCode }),
            },
            redact: {
              paths: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.secret'],
              remove: true,
            },
          },
    trustProxy: trustedProxies(ctx.config.server.trustProxy),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const security = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: ctx.config.server.trustProxy !== false ? [] : null,
      },
    },
    // HSTS only makes sense where TLS terminates in front of us.
    strictTransportSecurity: ctx.config.server.trustProxy !== false ? { maxAge: 31536000 } : false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(security);
    done();
  });
  await app.register(cookie);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'athar API',
        version,
        description:
          'The evidence of Syria’s detainees and disappeared: records, persons, evidence, review and the tamper-evident log. Errors are RFC 9457 problem+json.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'athar_session' },
          token: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  app.setErrorHandler((raised: FastifyError | Problem | DomainError, request, reply) => {
    const instance = request.url.split('?')[0];
    // The database gone or the disk full: 503 with what happened, not a 500 (issue 21, Reliability 4).
    const thrown = (raised instanceof Problem ? undefined : storageFault(raised)) ?? raised;
    // Services refuse in the domain's terms; this is the one place those become HTTP answers.
    const error = thrown instanceof DomainError ? problemOf(thrown, request.method) : thrown;
    if (thrown instanceof DomainError && thrown.kind === 'unavailable') {
      request.log.error({ err: thrown.cause ?? thrown }, thrown.message);
    }
    if (error instanceof Problem) {
      return reply
        .status(error.status)
        .type('application/problem+json')
        .send(problemBody(error.code, error.detail, instance, error.extensions));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: [
          error.validationContext,
          ...String(v.instancePath ?? '')
            .split('/')
            .filter(Boolean),
        ].join('.'),
        message: v.message ?? 'invalid',
      }));
      return reply
        .status(400)
        .type('application/problem+json')
        .send(problemBody('validation_failed', undefined, instance, { errors }));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    const code: ProblemCode =
      status === 413
        ? 'payload_too_large'
        : status === 415
          ? 'unsupported_media_type'
          : status === 429
            ? 'rate_limited'
            : status === 404
              ? 'not_found'
              : status >= 400 && status < 500
                ? 'bad_request'
                : 'internal';
    if (code === 'internal') request.log.error({ err: error }, 'unhandled error');
    const detail = code === 'internal' ? undefined : error.message;
    return reply
      .status(status)
      .type('application/problem+json')
      .send(problemBody(code, detail, instance));
  });

  const services = servicesOf(ctx);
  // Alerts (docs/access.md "Bulk reads of contacts") go to the log as well: ids and numbers, no personal data.
  services.audit.onAlert((alert) => app.log.warn({ alert }, `alert: ${alert.action}`));
  const access = registerAccess(app, services);
  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () =>
    app.swagger(),
  );
  await registerRoutes(app, services);
  access.seal();
  routeTables.set(app, access.routes);
  await registerWeb(app, ctx.config.server.webRoot);
  return app;
}

const routeTables = new WeakMap<App, RouteEntry[]>();

/** Every route athar registered with the rule it declared: what the route × role test walks. */
export function routeTable(app: App): readonly RouteEntry[] {
  return routeTables.get(app) ?? [];
}

/** Serves the built web app; unknown non-API GETs fall back to index.html so client routes work. */
async function registerWeb(app: App, webRoot: string): Promise<void> {
  const index = path.join(webRoot, 'index.html');
  const built = fs.existsSync(index);
  if (built) {
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: false, cacheControl: false });
    // Hashed assets never change: cache them for good. index.html must always be fresh.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.url.startsWith('/assets/'))
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      return payload;
    });
  }
  const isApi = (url: string) => /^\/(api|log|healthz|openapi\.json)(\/|$|\?)/.test(url);
  app.setNotFoundHandler((request, reply) => {
    if (
      request.method === 'GET' &&
      !isApi(request.url) &&
      (request.headers.accept ?? '').includes('text/html')
    ) {
      if (built) {
        reply.header('cache-control', 'no-cache');
        return reply.type('text/html; charset=utf-8').send(fs.createReadStream(index));
      }
      return reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><html lang="en"><meta charset="utf-8"><title>athar</title><p>The web interface is not built. Run <code>npm run build:web</code>, or start athar with <code>npm start</code>.</p></html>',
        );
    }
    return reply
      .status(404)
      .type('application/problem+json')
      .send(problemBody('not_found', `no route for ${request.method} ${request.url.split('?')[0]}`));
  });
}

/**
 * Helmet's response headers, computed once: with no nonces they depend on the configuration only, whereas
 * @fastify/helmet rebuilt the middleware (and re-parsed the CSP) on every request — ~3% of a person page's CPU.
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

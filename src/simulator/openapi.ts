/**
 * The OpenAPI 3 description served at /openapi.json. Variants let tests of the
 * client's drift detection see a changed document without a second simulator.
 * This module assembles the document and holds every variant's change in one
 * place; the schema components and the paths live in openapi-schemas.ts and
 * openapi-paths.ts.
 */
import { buildPaths } from './openapi-paths.js';
import { componentSchemas, type Json } from './openapi-schemas.js';

/** Named variants of the document; `baseline` matches what the simulator serves. */
export const openApiVariants = [
  'baseline',
  /** A new optional field `project.backer_goal` (additive change). */
  'field-added',
  /** `/project/{link_caption}/subscribers` disappears. */
  'endpoint-removed',
  /** The default of the blog `limit` parameter changes from 20 to 10. */
  'default-changed',
  /** `/project/{link_caption}/wall` gets a new query parameter `since`. */
  'parameter-added',
] as const;
export type OpenApiVariant = (typeof openApiVariants)[number];

/** Builds the document for a variant; a fresh object each time (callers may mutate it). */
export function buildOpenApiDocument(variant: OpenApiVariant = 'baseline'): Json {
  const projectSchemas = structuredClone(componentSchemas);
  if (variant === 'field-added') {
    const project = projectSchemas.Project as { properties: Json };
    project.properties.backer_goal = { type: 'integer', description: 'New: supporter goal' };
  }
  const paths = buildPaths({
    blogDefaultLimit: variant === 'default-changed' ? 10 : 20,
    wallSinceParameter: variant === 'parameter-added',
  });
  if (variant === 'endpoint-removed') delete paths['/project/{link_caption}/subscribers'];
  const version = {
    baseline: '1.0.0',
    'field-added': '1.1.0',
    'endpoint-removed': '2.0.0',
    'default-changed': '1.0.1',
    'parameter-added': '1.2.0',
  }[variant];
  return {
    openapi: '3.0.3',
    info: {
      title: 'Crowdfunding Project Data API (simulator)',
      version,
      description: 'Read access to crowdfunding projects with Project API Keys and User API Keys.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'svc_proj_... or svc_user_...' },
      },
      schemas: projectSchemas,
    },
  };
}

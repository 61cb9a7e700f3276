import { describe, expect, test } from 'vitest';
import {
  blogPostSchema,
  fundingSchema,
  incentiveDetailSchema,
  incentiveSchema,
  projectSchema,
  wallPostSchema,
} from '../../src/api/schemas/index.js';
import {
  buildBlogPost,
  buildFunding,
  buildIncentive,
  buildIncentiveDetail,
  buildLockedBlogPost,
  buildProject,
  buildWallPost,
} from '../support/builders.js';

describe('test builders', () => {
  test('produce objects the real API schemas accept', () => {
    expect(projectSchema.parse(buildProject())).toEqual(buildProject());
    expect(incentiveSchema.safeParse(buildIncentive()).success).toBe(true);
    expect(incentiveDetailSchema.safeParse(buildIncentiveDetail()).success).toBe(true);
    expect(blogPostSchema.safeParse(buildBlogPost()).success).toBe(true);
    expect(blogPostSchema.safeParse(buildLockedBlogPost()).success).toBe(true);
    expect(wallPostSchema.safeParse(buildWallPost()).success).toBe(true);
    expect(fundingSchema.safeParse(buildFunding()).success).toBe(true);
  });

  test('overrides win over defaults', () => {
    expect(buildIncentive({ quantity_total: 0 }).quantity_total).toBe(0);
    expect(buildProject({ currency: 'CHF' }).currency).toBe('CHF');
  });
});

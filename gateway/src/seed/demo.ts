import type { FastifyInstance } from 'fastify';

/** Demo data on an empty database (SEED_DEMO=0 skips it). */
export async function seedDemo(_app: FastifyInstance): Promise<void> {
  // TODO(issue 2): filled in by the demo-data work.
}

import multipart from '@fastify/multipart';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform, validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  COVER_FIELD,
  endpoints,
  IMAGE_MESSAGES,
  MAX_UPLOAD_BYTES,
  phaseChangesAt,
  TOURNAMENT_NOT_FOUND,
  type TournamentForm,
  type TournamentJson,
  TournamentListSchema,
  TournamentSchema,
  validateTournamentForm,
} from '@custom-room/contract';
import {
  getTournament,
  insertTournament,
  listTournamentSummaries,
  listTournaments,
  softDeleteTournament,
  toTournamentJson,
  updateTournament,
} from '../../db/tournaments.js';
import { countRegistrations } from '../../db/registrations.js';
import { findPlaceRules, type PlaceRules } from '../../db/places.js';
import { payByFor } from '../../services/places/rules.js';
import { fillPlaces, settlePlaces } from '../../services/places/settle.js';
import type { Trx } from '../../db/index.js';
import { insertImage } from '../../db/images.js';
import { bumpGeneration } from '../../db/generation.js';
import { processCoverImage } from '../../lib/images.js';
import { HttpError, NUL_MESSAGE, badRequest, conflict, notFound, type FieldErrors } from '../../lib/errors.js';


/** The soonest instant at which one of these tournaments' phase may change by time alone (decision 051). */
function firstChange(tournaments: TournamentJson[], now: number): number | null {
  const edges = tournaments.map((t) => phaseChangesAt(t, now)).filter((ms): ms is number => ms !== null);
  return edges.length > 0 ? Math.min(...edges) : null;
}

const NOT_MULTIPART = 'Send the tournament as multipart/form-data: the text fields plus an optional coverImage file.';

/**
 * fieldSize is in bytes: 20 KB keeps a 5000-character description whole even in 4-byte UTF-8
 * (Devanagari is 3 bytes a character); a longer value is truncated by busboy and reported below.
 */
const MULTIPART_LIMITS = { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 30, fieldSize: 20 * 1024 };

interface TournamentUpload {
  fields: Record<string, string>;
  cover?: Buffer;
}

/** onRequest: refuse anything but multipart before a byte of the body is read. */
async function requireMultipart(request: FastifyRequest) {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) throw new HttpError(415, NOT_MULTIPART);
}

/**
 * Reads every part (so the client always gets our answer, not a reset connection), collecting
 * text fields and the one cover file; maps the plugin's limit errors to players' messages.
 */
async function readTournamentUpload(request: FastifyRequest): Promise<TournamentUpload> {
  if (!request.isMultipart()) throw new HttpError(415, NOT_MULTIPART);
  const fields: Record<string, string> = {};
  const errors: FieldErrors = {};
  let cover: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname !== COVER_FIELD) {
          errors[part.fieldname] = `Only ${COVER_FIELD} may carry a file.`;
        } else if (data.length > 0 || part.filename) {
          // A browser sends an empty, nameless part when no file was chosen: that means "no new cover".
          cover = data;
        }
        continue;
      }
      const name = part.fieldname;
      if (name === COVER_FIELD) continue; // an empty text value from a form without a chosen file
      if (Object.hasOwn(fields, name)) errors[name] = 'Send this field only once.';
      else if (part.valueTruncated) errors[name] = 'This value is too long.';
      else if (typeof part.value !== 'string') errors[name] = 'Must be text.';
      else if (part.value.includes('\u0000')) errors[name] = NUL_MESSAGE;
      fields[name] = typeof part.value === 'string' ? part.value : '';
    }
  } catch (err) {
    throw uploadError(err);
  }
  if (Object.keys(errors).length > 0) throw badRequest('Please check the highlighted fields.', errors);
  return { fields, cover };
}

function uploadError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, IMAGE_MESSAGES.tooLarge, { [COVER_FIELD]: IMAGE_MESSAGES.tooLarge });
    case 'FST_FILES_LIMIT':
      return badRequest(IMAGE_MESSAGES.tooMany, { [COVER_FIELD]: IMAGE_MESSAGES.tooMany });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest(`Too many form fields: at most ${MULTIPART_LIMITS.fields}.`);
    case 'FST_PROTO_VIOLATION':
      return badRequest('The form has a field name that is not allowed.');
    default:
      // Busboy's own errors: a cut-off upload, a missing boundary, a malformed part header.
      return badRequest('The form could not be read. Please try sending it again.');
  }
}

function validateFields(fields: Record<string, string>): TournamentForm {
  const result = validateTournamentForm(fields);
  if (result.errors) throw badRequest('Please check the highlighted fields.', result.errors);
  return result.data;
}

/** The multipart body has a documentation schema only: the handler parses it, so Fastify must not validate it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- it serves routes whose schema types all differ
const documentOnlyBody: FastifySchemaCompiler<any> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

/** OpenAPI: the file field is binary, which zod cannot express. */
const multipartDocTransform: SwaggerTransform = (input) => {
  const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const body = (out.schema as { body?: { properties?: Record<string, unknown> } }).body;
  if (body?.properties?.[COVER_FIELD]) {
    body.properties[COVER_FIELD] = {
      type: 'string',
      format: 'binary',
      description: 'Image file (JPEG, PNG, WebP, GIF or AVIF), at most 5 MB, at least 200×100 pixels; re-encoded to WebP',
    };
  }
  return out as ReturnType<SwaggerTransform>;
};

const routes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Decision 043, after an edit (tournament locked): a new payment deadline applies to the teams already
   * placed and unpaid, counted from now; more places take waitlisted teams at once.
   */
  async function placeRulesChanged(trx: Trx, before: PlaceRules, after: PlaceRules) {
    const at = app.clock.now();
    const deadlineChanged =
      before.payment_deadline_hours !== after.payment_deadline_hours ||
      before.payment_deadline_at !== after.payment_deadline_at ||
      Number(before.entry_fee) <= 0 !== Number(after.entry_fee) <= 0;
    if (deadlineChanged) {
      await trx
        .updateTable('registrations')
        .set({ pay_by: payByFor(after, at) })
        .where('tournament_id', '=', after.id)
        .where('place', '=', 'placed')
        .where('payment_status', '!=', 'verified')
        .execute();
    }
    if ((await fillPlaces(trx, after, at)).length > 0) await bumpGeneration(trx, after.id);
  }

  // Encapsulated: only this plugin's routes accept multipart bodies.
  await app.register(multipart, { limits: MULTIPART_LIMITS });

  app.get(
    endpoints.listTournaments.url,
    {
      schema: endpoints.listTournaments.schema,
    },
    (request, reply) =>
      app.answers.send(request, reply, {
        key: 'tournaments',
        build: async () => {
          const now = app.clock.now();
          return (await listTournaments(app.store.db)).map((row) => toTournamentJson(row, now));
        },
        schema: TournamentListSchema,
        // The phase reads the clock (decision 051): kept no longer than the first tournament's next edge.
        changesAt: (value, now) => firstChange(value as TournamentJson[], now),
      }),
  );

  // A static path: find-my-way matches it before /tournaments/:id, which is one segment shorter anyway.
  app.get(
    endpoints.adminTournamentSummary.url,
    {
      schema: endpoints.adminTournamentSummary.schema,
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listTournamentSummaries(app.store.db, app.clock.now());
    },
  );

  app.get(
    endpoints.getTournament.url,
    {
      schema: endpoints.getTournament.schema,
    },
    (request, reply) => {
      const { id } = request.params;
      return app.answers.send(request, reply, {
        key: `tournament:${id}`,
        tournamentId: id,
        build: async () => {
          const row = await getTournament(app.store.db, id);
          if (!row) throw notFound(TOURNAMENT_NOT_FOUND);
          return toTournamentJson(row, app.clock.now());
        },
        schema: TournamentSchema,
        changesAt: (value, now) => firstChange([value as TournamentJson], now),
      });
    },
  );

  app.post(
    endpoints.addTournament.url,
    {
      onRequest: requireMultipart,
      validatorCompiler: documentOnlyBody,
      config: { swaggerTransform: multipartDocTransform },
      schema: endpoints.addTournament.schema,
    },
    async (request) => {
      const upload = await readTournamentUpload(request);
      const form = validateFields(upload.fields);
      const cover = upload.cover ? await processCoverImage(upload.cover) : undefined;
      const id = await app.store.writeTransaction(async (trx) => {
        if (cover) await insertImage(trx, cover);
        const id = await insertTournament(trx, { ...form, coverImageId: cover?.id ?? null });
        await bumpGeneration(trx, id);
        return id;
      });
      const row = await getTournament(app.store.db, id);
      if (!row) throw notFound(TOURNAMENT_NOT_FOUND); // deleted in the blink since the insert
      return toTournamentJson(row, app.clock.now());
    },
  );

  app.put(
    endpoints.updateTournament.url,
    {
      onRequest: requireMultipart,
      validatorCompiler: documentOnlyBody,
      config: { swaggerTransform: multipartDocTransform },
      schema: endpoints.updateTournament.schema,
    },
    async (request) => {
      const { id } = request.params;
      const upload = await readTournamentUpload(request);
      const form = validateFields(upload.fields);
      if (!(await getTournament(app.store.db, id))) throw notFound(TOURNAMENT_NOT_FOUND);
      const cover = upload.cover ? await processCoverImage(upload.cover) : undefined;
      await app.store.writeTransaction(async (trx) => {
        // The lock orders this against registrations, so the count cannot grow past the new maxTeams.
        const locked = await app.store.lockTournament(trx, id);
        if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
        // Decision 043: teams already overdue lose their place under the rules they registered by, before any new rule.
        const before = await findPlaceRules(trx, id);
        if (before) await settlePlaces(trx, before, app.clock.now());
        const registered = await countRegistrations(trx, id);
        if (form.maxTeams < registered) {
          const message = `${registered} teams are already registered: Max teams cannot be lower than that.`;
          throw conflict(message, { maxTeams: message });
        }
        if (cover) await insertImage(trx, cover);
        if (await updateTournament(trx, id, { ...form, coverImageId: cover?.id })) await bumpGeneration(trx, id);
        const after = await findPlaceRules(trx, id);
        if (before && after) await placeRulesChanged(trx, before, after);
      });
      const row = await getTournament(app.store.db, id);
      if (!row) throw notFound(TOURNAMENT_NOT_FOUND);
      return toTournamentJson(row, app.clock.now());
    },
  );

  // The spec's path has no slash before the id: /tournaments/admin/delete42.
  app.delete(
    endpoints.deleteTournament.url,
    {
      schema: endpoints.deleteTournament.schema,
    },
    async (request) => {
      const deleted = await app.store.writeTransaction(async (trx) => {
        const done = await softDeleteTournament(trx, request.params.id);
        if (done) await bumpGeneration(trx, request.params.id);
        return done;
      });
      if (!deleted) throw notFound(TOURNAMENT_NOT_FOUND);
      return { message: 'Tournament deleted successfully!' };
    },
  );
};

export default routes;

import multipart from '@fastify/multipart';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, OrganiserUpdateSchema, type FieldErrors } from '@custom-room/contract';
import { badRequest } from '../../lib/errors.js';
import { LOGO_KIND, processLogoImage } from '../../lib/images.js';
import { currentUser } from '../../plugins/auth.js';
import { changeOrganiser, checkOrganiserEditable } from '../../services/organisers.js';
import { MULTIPART_LIMITS, multipartDocTransform, readFormUpload } from '../tournaments/upload.js';

/**
 * PUT /organisers/{slug} takes JSON, as it always did, or multipart/form-data with the same text fields
 * and an optional logo file (decision 068): the cover's reader, checks and image store.
 */

/** Stands for a multipart body until the handler reads its parts: only the JSON body is Fastify's to validate. */
const MULTIPART_BODY = Object.freeze({});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the compiler serves every part of the route's schema
const jsonBodyOnly: FastifySchemaCompiler<any> = (route) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'body' ? (data: unknown) => (data === MULTIPART_BODY ? { value: data } : validate(data)) : validate;
};

const NOT_FORM = 'Send the organiser as JSON, or as multipart/form-data with an optional logo file.';

const routes: FastifyPluginAsyncZod = async (app) => {
  // Encapsulated: only this route accepts multipart bodies.
  await app.register(multipart, { limits: MULTIPART_LIMITS });

  app.put(
    endpoints.updateOrganiser.url,
    {
      schema: endpoints.updateOrganiser.schema,
      validatorCompiler: jsonBodyOnly,
      config: { swaggerTransform: multipartDocTransform },
      preValidation: async (request) => {
        if (request.isMultipart()) request.body = MULTIPART_BODY as typeof request.body;
      },
    },
    async (request) => {
      const { slug } = request.params;
      const caller = currentUser(request);
      if (request.body !== MULTIPART_BODY) return changeOrganiser(app, slug, caller, request.body);
      const upload = await readFormUpload(request, LOGO_KIND, NOT_FORM);
      const parsed = OrganiserUpdateSchema.safeParse(upload.fields);
      if (!parsed.success) {
        const errors: FieldErrors = {};
        for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'request')] ??= issue.message;
        throw badRequest('Please check the highlighted fields.', errors);
      }
      // The 404 and 403 come before the image work; the change checks them again in its transaction.
      await checkOrganiserEditable(app, slug, caller);
      const logo = upload.file ? await processLogoImage(upload.file) : undefined;
      return changeOrganiser(app, slug, caller, parsed.data, logo);
    },
  );
};

export default routes;

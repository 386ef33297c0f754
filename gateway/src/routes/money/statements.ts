import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, STATEMENT_FIELD, STATEMENT_MESSAGES } from '@custom-room/contract';
import { badRequest } from '../../lib/errors.js';
import type { ImageKind } from '../../lib/images.js';
import { currentUser } from '../../plugins/auth.js';
import {
  setStatementColumns,
  statementPreview,
  statementsOf,
  uploadStatement,
  verifyFromStatement,
} from '../../services/money/statements.js';
import { acceptMultipart, multipartRoute } from '../reports/uploads.js';
import { readFormUpload } from '../tournaments/upload.js';

/** Issue 31 (decision 081): the organiser's statements, matched to the teams' UTRs (multipart upload). */

/** The upload form's reader takes a file kind; a statement's words are its own (it is no image: nothing is decoded here). */
const STATEMENT_KIND: ImageKind = {
  field: STATEMENT_FIELD,
  messages: {
    wrongType: STATEMENT_MESSAGES.required,
    unreadable: STATEMENT_MESSAGES.required,
    tooLarge: STATEMENT_MESSAGES.tooLarge,
    tooMany: STATEMENT_MESSAGES.tooMany,
    tooSmall: STATEMENT_MESSAGES.required,
    tooTall: STATEMENT_MESSAGES.required,
    tooManyPixels: STATEMENT_MESSAGES.required,
    hiddenData: STATEMENT_MESSAGES.required,
  },
  widths: [],
};
const NOT_FORM = 'Send the statement as multipart/form-data with its file in the statement field.';

const routes: FastifyPluginAsyncZod = async (app) => {
  await acceptMultipart(app);

  app.post(endpoints.uploadStatement.url, { ...multipartRoute(), schema: endpoints.uploadStatement.schema }, async (request, reply) => {
    const upload = await readFormUpload(request, STATEMENT_KIND, NOT_FORM);
    if (!upload.file || upload.file.length === 0)
      throw badRequest(STATEMENT_MESSAGES.required, { [STATEMENT_FIELD]: STATEMENT_MESSAGES.required });
    const user = currentUser(request);
    const { statement, created } = await uploadStatement(app, request.params.id, user, { bytes: upload.file, name: upload.fileName ?? '' });
    return reply.code(created ? 201 : 200).send(statement);
  });

  app.get(endpoints.listStatements.url, { schema: endpoints.listStatements.schema }, (request) => statementsOf(app, request.params.id));

  app.get(endpoints.statementPreview.url, { schema: endpoints.statementPreview.schema }, (request) =>
    statementPreview(app, request.params.id, request.params.statementId),
  );

  app.put(endpoints.setStatementColumns.url, { schema: endpoints.setStatementColumns.schema }, (request) =>
    setStatementColumns(app, request.params.id, request.params.statementId, request.body.columns),
  );

  app.post(endpoints.verifyStatement.url, { schema: endpoints.verifyStatement.schema }, (request) =>
    verifyFromStatement(app, request.params.id, request.params.statementId, currentUser(request), request.body),
  );
};

export default routes;

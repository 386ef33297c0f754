// Issue 28: the restructuring keeps the OpenAPI document byte for byte. The fixture is the document
// as served before the house was rebuilt; a change to the API is a change to this fixture, made on
// purpose (UPDATE_OPENAPI=1 writes it) and reviewed in the diff.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './helpers.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/openapi.json');
let gw: TestGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw?.stop());

it('serves the OpenAPI document of the fixture, byte for byte', async () => {
  const res = await fetch(`${gw.url}/openapi.json`);
  expect(res.status).toBe(200);
  const text = `${JSON.stringify(await res.json(), null, 2)}\n`;
  if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(FIXTURE, text);
  expect(text).toBe(fs.readFileSync(FIXTURE, 'utf8'));
});

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ResultsGrid, type ResultsGridProps } from '~/components/results-entry/results-grid';
import { UNAVAILABLE_FORM_MESSAGE } from '~/utils/forms.server';
import { GatewayError } from '~/utils/gateway.server';
import { NUMBER_FIELDS, readResultInput, RESULT_FIELDS, resultInput, rowKeys } from '~/utils/results-entry';
import { parseResultsForm, resultsRefusal, type RefusalWords } from '~/utils/results-entry.server';

/** Decision 062: the one results-entry module both results screens use. */

function form(fields: [string, string][]) {
  const fd = new FormData();
  for (const [k, v] of fields) fd.append(k, v);
  return fd;
}

describe('input names', () => {
  it('names an input {field}.{teamId} and reads it back only for the fields asked and an id of 1 to 9 digits', () => {
    expect(resultInput('finishes', 12)).toBe('finishes.12');
    expect(readResultInput('position.12', NUMBER_FIELDS)).toEqual({ field: 'position', teamId: 12 });
    expect(readResultInput('absent.12', RESULT_FIELDS)).toEqual({ field: 'absent', teamId: 12 });
    for (const name of [
      'absent.12',
      'wins.12',
      'position',
      'position.',
      'position.1.2',
      'position.x',
      'position.1234567890',
      'position. 1',
    ])
      expect(readResultInput(name, NUMBER_FIELDS), name).toBeNull();
  });

  it("lists a row's error keys in the grid's order: the row, then its inputs", () => {
    expect(rowKeys(7, RESULT_FIELDS)).toEqual(['teamId.7', 'position.7', 'finishes.7', 'absent.7']);
    expect(rowKeys(7, NUMBER_FIELDS)).toEqual(['teamId.7', 'position.7', 'finishes.7']);
  });
});

describe('parseResultsForm', () => {
  it('without teamIds reads the teams the form names, and never an absent box the grid does not have', () => {
    const parsed = parseResultsForm(
      form([
        ['finishes.4', '3'],
        ['position.8', ''],
        ['absent.8', 'on'],
        ['position.4', ''],
      ]),
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [{ teamId: 4, position: 0, finishes: 3 }],
      values: { 'position.4': '', 'finishes.4': '3', 'position.8': '' },
    });
  });

  it('with teamIds reads those teams only, and an absent team is sent even at 0 and 0', () => {
    const parsed = parseResultsForm(
      form([
        ['position.5', '2'],
        ['absent.6', 'on'],
        ['position.7', '1'],
      ]),
      { teamIds: [6, 5], absent: true },
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        { teamId: 6, position: 0, finishes: 0, absent: true },
        { teamId: 5, position: 2, finishes: 0 },
      ],
      values: { 'absent.6': 'on', 'position.5': '2' },
    });
  });

  it("refuses a value out of the gateway's range, keyed like the input, and keeps what was typed", () => {
    const parsed = parseResultsForm(form([['finishes.5', '100']]), { teamIds: [5] });
    expect(parsed).toEqual({
      ok: false,
      fieldErrors: { 'finishes.5': 'Finishes must be a whole number from 0 to 99.' },
      values: { 'finishes.5': '100' },
    });
  });
});

describe('resultsRefusal', () => {
  const GROUP: RefusalWords = { failed: 'Failed to save the results.' };
  const POINTS: RefusalWords = {
    failed: 'Failed to submit points.',
    unavailable: 'Failed to submit points.',
    whole: (err) => (err.status === 403 ? 'Unauthorized.' : null),
    gatewaySays: (err) => err.status === 409,
  };

  it('puts row errors beside their rows and says the rest after the failure message', () => {
    const err = new GatewayError(400, 'Invalid input.', {
      'position.12': 'Position must be 1 to 25.',
      'teamId.9': 'Team 9 is not in Group A.',
      'wins.12': 'A win is position 1.',
      'absent.3': 'An absent team has no placement.',
      results: 'At most 100 rows.',
    });
    expect(resultsRefusal(err, GROUP)).toEqual({
      fieldErrors: {
        'position.12': 'Position must be 1 to 25.',
        'teamId.9': 'Team 9 is not in Group A.',
        'wins.12': 'A win is position 1.',
        'absent.3': 'An absent team has no placement.',
      },
      formError: 'Failed to save the results. At most 100 rows.',
    });
  });

  it("says the gateway's own message when it said nothing else, unless the screen chooses when", () => {
    const err = new GatewayError(400, 'Lobby is full.');
    expect(resultsRefusal(err, GROUP)).toEqual({ fieldErrors: {}, formError: 'Lobby is full.' });
    expect(resultsRefusal(err, POINTS)).toEqual({ fieldErrors: {}, formError: 'Failed to submit points.' });
    const shared = new GatewayError(409, 'Soul and Blind share position 2.', { 'position.9': 'Shared.' });
    expect(resultsRefusal(shared, POINTS)).toEqual({
      fieldErrors: { 'position.9': 'Shared.' },
      formError: 'Soul and Blind share position 2.',
    });
    expect(resultsRefusal(shared, GROUP)).toEqual({ fieldErrors: { 'position.9': 'Shared.' }, formError: 'Failed to save the results.' });
  });

  it("says an unreachable gateway and the screen's whole refusals in the screen's words, with no row errors", () => {
    const down = new GatewayError(503, 'down', { 'position.1': 'x' }, true);
    expect(resultsRefusal(down, GROUP)).toEqual({ fieldErrors: {}, formError: UNAVAILABLE_FORM_MESSAGE });
    expect(resultsRefusal(down, POINTS)).toEqual({ fieldErrors: {}, formError: 'Failed to submit points.' });
    expect(resultsRefusal(new GatewayError(403, 'Forbidden', { 'position.1': 'x' }), POINTS)).toEqual({
      fieldErrors: {},
      formError: 'Unauthorized.',
    });
  });
});

describe('ResultsGrid', () => {
  const grid = (props: Partial<ResultsGridProps>) =>
    renderToStaticMarkup(
      createElement(ResultsGrid, {
        teams: [{ teamId: 3, teamName: 'Soul', slot: 2, igns: ['a', 'b'] }],
        caption: 'Match 1',
        errors: {},
        value: (field) => (field === 'position' ? '1' : ''),
        points: () => 16,
        ...props,
      }),
    );
  const headings = (html: string) => html.match(/<th scope="col"/g) ?? [];

  it('shows the columns each screen asks for, in one order', () => {
    expect(headings(grid({ slots: true, absent: () => false })).length).toBe(6);
    expect(grid({ slots: true, absent: () => false })).toContain('<td>2</td>');
    expect(grid({ win: true })).toContain('<td class="ops-win">Win</td>');
    const points = grid({ win: true, teamColumnId: 'col-team', teams: [{ teamId: 3, teamName: 'Soul' }] });
    expect(headings(points).length).toBe(5);
    expect(points).toContain('<th scope="row" id="team-3" class="ops-team">Soul</th>');
  });

  it("lists a row's errors under it; each input is described by them for the row or for itself", () => {
    const errors = { 'finishes.3': 'Too many.' };
    const row = grid({ errors, absent: () => true, slots: true });
    expect(row).toContain('<td colSpan="6" id="row-error-3">');
    expect(row.match(/aria-describedby="row-error-3"/g)).toHaveLength(3);
    const field = grid({ errors, describe: 'field' });
    expect(field).toContain('<td colSpan="4" id="row-error-3">');
    expect(field.match(/aria-describedby="row-error-3"/g)).toHaveLength(1);
  });
});

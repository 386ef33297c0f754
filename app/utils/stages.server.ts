import type { Stage } from './gateway.server';

/** Public stage screens (issue 18): what a page needs of GET /tournaments/{id}/stages, and never every slot list. */

export interface StageSummary {
  id: number;
  name: string;
  order: number;
  state: string;
  /** "Top 2 of each group and the best 4 of the rest advance", or "Final: nobody advances". */
  advance: string;
  /** The stage's table is the tournament's final standings: the last stage, completed. */
  final: boolean;
  groups: { id: number; name: string; teams: number }[];
}

export function advanceWords(s: Pick<Stage, 'advancePerGroup' | 'advanceBest'>): string {
  const parts: string[] = [];
  if (s.advancePerGroup > 0) parts.push(`the top ${s.advancePerGroup} of each group`);
  if (s.advanceBest > 0) parts.push(`the best ${s.advanceBest} of the rest`);
  if (parts.length === 0) return 'Final: nobody advances, its table is the final standings.';
  const words = parts.join(' and ');
  return `${words[0]!.toUpperCase()}${words.slice(1)} advance.`;
}

/** The stages anyone may see (published or completed), in order, with their groups as links (no slot lists). */
export function publicStages(stages: readonly Stage[]): StageSummary[] {
  const lastOrder = Math.max(0, ...stages.map((s) => s.order));
  return stages
    .filter((s) => s.state !== 'draft')
    .sort((a, b) => a.order - b.order)
    .map((s) => ({
      id: s.id,
      name: s.name,
      order: s.order,
      state: s.state,
      advance: advanceWords(s),
      final: s.order === lastOrder && s.state === 'completed',
      groups: s.groups.map((g) => ({ id: g.id, name: g.name, teams: g.slots.length })),
    }));
}

/** The stage the tables show when none is named (the gateway's "current stage"): the last published or completed one. */
export const currentStage = (stages: readonly StageSummary[]) => stages.at(-1) ?? null;

/** A positive id from the query (?stage=, ?group=): undefined when absent, null when it is not one. */
export function queryId(raw: string | null): number | undefined | null {
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}

/**
 * The contract's qualifying note for the server's loaders only: importing the contract's index in a route
 * module pulls its schemas (and the 35 KB confusables table) into the browser's bundle (decision 087).
 */
export { qualifyingNote } from '@custom-room/contract';

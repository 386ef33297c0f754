import { z } from 'zod';
import { MAP_MAX, MATCH_DAY_MAX, MATCH_NO_MAX, ROOM_TEXT_MAX } from '../constants.js';
import { IdSchema, nameText, singleLine } from './common.js';

/** A whole number in a range; numeric strings from form posts are accepted too. */
const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ required_error: `${label} is required.`, invalid_type_error: `${label} must be a whole number.` })
      .int(`${label} must be a whole number.`)
      .min(min, `${label} must be between ${min} and ${max}.`)
      .max(max, `${label} must be between ${min} and ${max}.`),
  );

const roomText = (label: string) =>
  singleLine(z.string({ invalid_type_error: `${label} must be text.` }).trim(), label)
    .max(ROOM_TEXT_MAX, `${label} must be at most ${ROOM_TEXT_MAX} characters.`)
    .nullish()
    .transform((v) => v ?? '');

export const MatchBodySchema = z.object({
  tid: wholeNumber('Tournament', 1, 2_147_483_647),
  day: wholeNumber('Day', 1, MATCH_DAY_MAX),
  matchNo: wholeNumber('Match number', 1, MATCH_NO_MAX),
  map: nameText('Map', MAP_MAX),
  matchId: roomText('Room ID'),
  password: roomText('Room password'),
  time: z
    .string({ required_error: 'Time is required.', invalid_type_error: 'Time must be text.' })
    .trim()
    .min(1, 'Time is required.')
    .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'Time must be HH:MM or HH:MM:SS (24-hour), e.g. 18:30.'),
  groupId: IdSchema.optional().describe("A group of one of the tournament's stages: the match is that group's lobby (issue 18)."),
});
export type MatchBody = z.infer<typeof MatchBodySchema>;

export const MatchIdParamsSchema = z.object({ id: IdSchema });
export const MatchTournamentParamsSchema = z.object({ tournamentId: IdSchema });

/** matchId (room ID) and password are null for callers who may not see them. */
export const MatchSchema = z.object({
  id: z.number().int(),
  tid: z.number().int(),
  day: z.number().int(),
  matchNo: z.number().int(),
  map: z.string(),
  matchId: z.string().nullable(),
  password: z.string().nullable(),
  time: z.string(),
  groupId: z.number().int().optional().describe('Only on group matches.'),
  groupName: z.string().optional(),
  stageId: z.number().int().optional(),
  stageName: z.string().optional(),
});
export type Match = z.infer<typeof MatchSchema>;

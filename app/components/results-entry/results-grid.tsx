import { Fragment, type ReactNode } from 'react';
import { NUMBER_FIELDS, RESULT_FIELDS, resultInput, rowKeys, type NumberField } from '~/utils/results-entry';

export interface GridTeam {
  teamId: number;
  teamName: string;
  /** The team's slot in its group: shown in a # column when the grid has one. */
  slot?: number;
  /** The players' IGNs, shown under the name (the game's result screen lists players); left out, the name alone. */
  igns?: readonly string[];
}

export interface ResultsGridProps {
  teams: readonly GridTeam[];
  /** Said to screen readers: what the table holds. */
  caption: ReactNode;
  errors: Record<string, string>;
  /** The text of a number input: the refused post's value, else the saved one. */
  value: (field: NumberField, teamId: number) => string;
  /** The points of a saved row, null for none ('—'). */
  points: (teamId: number) => number | null;
  /** An Absent box per team (a group match), ticked when this says so; left out, no Absent column. */
  absent?: (teamId: number) => boolean;
  /** A # column with each team's slot. */
  slots?: boolean;
  /** A Win column: placement 1 on screen, as the gateway derives the win. */
  win?: boolean;
  tableClassName?: string;
  teamColumnId?: string;
  /** Which inputs a row's errors describe: every input of the row, or only the refused one. */
  describe?: 'row' | 'field';
}

/**
 * The results grid (decision 062): one row per team with its position and finishes (and Absent box),
 * the row's errors in a row below it. Used by every screen that enters one match's results; each
 * screen says which columns it shows. Plain inputs: it posts the same without JavaScript.
 */
export function ResultsGrid(props: ResultsGridProps) {
  const { teams, caption, slots = false, win = false, tableClassName = 'ops-points', teamColumnId } = props;
  return (
    <div className="ops-table-wrap" role="region" aria-labelledby="rows-caption" tabIndex={0}>
      <table className={tableClassName}>
        <caption id="rows-caption" className="visually-hidden">
          {caption}
        </caption>
        <thead>
          <tr>
            {slots ? (
              <th scope="col">
                <span aria-hidden="true">#</span>
                <span className="visually-hidden">Slot</span>
              </th>
            ) : null}
            <th scope="col" id={teamColumnId}>
              Team
            </th>
            <NumberHeadings />
            {props.absent ? (
              <th scope="col" id="col-absent">
                Absent
              </th>
            ) : null}
            {win ? <Heading short="Win" full="Win (position 1)" /> : null}
            <Heading short="Pts" full="Points this match" />
          </tr>
        </thead>
        <tbody>
          {teams.map((team) => (
            <GridRow key={team.teamId} team={team} {...props} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const NUMBER_LABELS: Record<NumberField, { short: string; full: string }> = {
  position: { short: 'Pos', full: 'Position' },
  finishes: { short: 'Fin', full: 'Finishes' },
};

export function Heading({ short, full, id }: { short: string; full: string; id?: string }) {
  return (
    <th scope="col" id={id}>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{full}</span>
    </th>
  );
}

function NumberHeadings() {
  return NUMBER_FIELDS.map((f) => <Heading key={f} id={`col-${f}`} {...NUMBER_LABELS[f]} />);
}

function GridRow({ team, errors, value, points, absent, slots, win, describe = 'row' }: ResultsGridProps & { team: GridTeam }) {
  const { teamId, teamName } = team;
  const rowErrors = rowKeys(teamId, absent ? RESULT_FIELDS : NUMBER_FIELDS)
    .map((k) => errors[k])
    .filter(Boolean);
  const errorId = `row-error-${teamId}`;
  const describedBy = (name: string) => ((describe === 'row' ? rowErrors.length : errors[name]) ? errorId : undefined);
  const columns = 4 + (slots ? 1 : 0) + (absent ? 1 : 0) + (win ? 1 : 0);
  const shown = points(teamId);
  return (
    <Fragment>
      <tr className={rowErrors.length ? 'has-error' : undefined}>
        {slots ? <td>{team.slot}</td> : null}
        <TeamCell team={team} />
        {NUMBER_FIELDS.map((f) => (
          <td key={f}>
            <NumberInput
              name={resultInput(f, teamId)}
              column={f}
              teamId={teamId}
              value={value(f, teamId)}
              errors={errors}
              describedBy={describedBy}
            />
          </td>
        ))}
        {absent ? (
          <td>
            <input
              id={resultInput('absent', teamId)}
              name={resultInput('absent', teamId)}
              type="checkbox"
              defaultChecked={absent(teamId)}
              aria-labelledby={`team-${teamId} col-absent`}
              aria-invalid={errors[resultInput('absent', teamId)] ? true : undefined}
              aria-describedby={describedBy(resultInput('absent', teamId))}
            />
          </td>
        ) : null}
        {win ? <td className="ops-win">{Number(value('position', teamId).trim() || 0) === 1 ? 'Win' : ''}</td> : null}
        <td className="ops-pts">{shown ?? '—'}</td>
      </tr>
      <RowErrors id={errorId} teamName={teamName} messages={rowErrors} columns={columns} />
    </Fragment>
  );
}

/** A row's errors in a table row of their own under it, each naming the team (none: nothing). */
export function RowErrors({
  id,
  teamName,
  messages,
  columns,
}: {
  id: string;
  teamName: string;
  messages: readonly string[];
  columns: number;
}) {
  if (messages.length === 0) return null;
  return (
    <tr className="ops-row-error">
      <td colSpan={columns} id={id}>
        {messages.map((message) => (
          <p key={message} className="field-error">
            <span aria-hidden="true">⚠ </span>
            {teamName}: {message}
          </p>
        ))}
      </td>
    </tr>
  );
}

/** The inputs are labelled by the name alone; the IGNs are for the eye, matching the game's screen. */
export function TeamCell({ team }: { team: GridTeam }) {
  if (!team.igns)
    return (
      <th scope="row" id={`team-${team.teamId}`} className="ops-team">
        {team.teamName}
      </th>
    );
  return (
    <th scope="row" className="ops-team">
      <span id={`team-${team.teamId}`}>{team.teamName}</span>
      {team.igns.length > 0 ? <span className="ops-igns">{team.igns.join(' · ')}</span> : null}
    </th>
  );
}

export interface NumberInputProps {
  name: string;
  column: NumberField;
  teamId: number;
  value: string;
  errors: Record<string, string>;
  describedBy: (name: string) => string | undefined;
}

export function NumberInput({ name, column, teamId, value, errors, describedBy }: NumberInputProps) {
  return (
    <input
      id={name}
      name={name}
      type="text"
      inputMode="numeric"
      pattern="[0-9]*"
      autoComplete="off"
      maxLength={3}
      placeholder="0"
      defaultValue={value}
      aria-labelledby={`team-${teamId} col-${column}`}
      aria-invalid={errors[name] ? true : undefined}
      aria-describedby={describedBy(name)}
    />
  );
}

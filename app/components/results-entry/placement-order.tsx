import { Form, useNavigation } from '@remix-run/react';
import type { ComponentProps } from 'react';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextAreaField } from '~/components/ui/text-field';
import {
  FINISH_ORDER,
  PLACEMENT_INTENT,
  RESULT_FIELDS,
  resultInput,
  rowKeys,
  SLOT_ORDER,
  slotRanges,
  type PlacementStep,
} from '~/utils/results-entry';
import { Heading, NumberInput, RowErrors, TeamCell, type GridTeam } from './results-grid';

type SlotTeam = GridTeam & { slot: number };

export interface PlacementOrderProps {
  /** The lobby's teams (slot order). */
  teams: readonly SlotTeam[];
  /** The lobby as the page names it ("Group B"). */
  lobby: string;
  maxFinishes: number;
  /** Step 1's lists before anything is posted: the saved results, when they read as lists. */
  saved: { slots: string; finishes: string };
  /** The post's answer: the step to show again; null shows step 1. */
  answer: PlacementStep | null;
}

/**
 * Placement-order entry (decision 073): step 1 takes the slots as the game's result list shows them (and
 * the finishes in the same order, to save at once); step 2 lists the teams in that order with one finishes
 * input each. Plain posts with an intent, the order carried in a hidden field: the same without JavaScript.
 */
export function PlacementOrder(props: PlacementOrderProps) {
  const { answer } = props;
  return answer?.step === 2 ? <StepTwo {...props} answer={answer} /> : <StepOne {...props} />;
}

function StepOne({ teams, lobby, saved, answer }: PlacementOrderProps) {
  const errors = answer?.fieldErrors ?? {};
  const typed = (name: string, fallback: string) => (answer ? (answer.values[name] ?? '') : fallback);
  return (
    <Form method="post" noValidate className="po-form" key={answer ? JSON.stringify(answer.values) : 'saved'}>
      <ErrorSummary fieldErrors={errors} formError={answer?.formError} order={[SLOT_ORDER, FINISH_ORDER]} />
      <TextAreaField
        name={SLOT_ORDER}
        label="Slots in result order"
        hint={
          <>
            As the game’s result list shows them, 1st place first: 7 12 3 … Spaces, commas or new lines separate them. {lobby}’s slots:{' '}
            {slotRanges(teams.map((t) => t.slot))}. A team left out did not play: it is saved as absent.
          </>
        }
        error={errors[SLOT_ORDER]}
        defaultValue={typed(SLOT_ORDER, saved.slots)}
        rows={3}
        autoComplete="off"
        spellCheck={false}
      />
      <TextAreaField
        name={FINISH_ORDER}
        label="Finishes in the same order (optional)"
        hint="One number for each slot listed: 2 0 5 … Typed here, “Save results” saves in one step; left empty, the next step asks team by team."
        error={errors[FINISH_ORDER]}
        defaultValue={typed(FINISH_ORDER, saved.finishes)}
        rows={3}
        autoComplete="off"
        spellCheck={false}
      />
      <div className="po-buttons">
        <IntentButton intent={PLACEMENT_INTENT.next} pendingLabel="Reading…">
          Next: finishes
        </IntentButton>
        <IntentButton intent={PLACEMENT_INTENT.save} className="button button-secondary" pendingLabel="Saving…">
          Save results
        </IntentButton>
      </div>
    </Form>
  );
}

/** A step's button: says it is working only when it is the one that was pressed (a step has two). */
function IntentButton({ intent, pendingLabel, ...props }: ComponentProps<typeof SubmitButton> & { intent: string }) {
  const sent = useNavigation().formData?.get('intent');
  return <SubmitButton name="intent" value={intent} pendingLabel={sent === intent ? pendingLabel : undefined} {...props} />;
}

function StepTwo({ teams, lobby, maxFinishes, answer }: PlacementOrderProps & { answer: PlacementStep }) {
  const byId = new Map(teams.map((t) => [t.teamId, t]));
  const placed = answer.order.flatMap((id) => byId.get(id) ?? []);
  const listed = new Set(answer.order);
  const absent = teams.filter((t) => !listed.has(t.teamId));
  const errors = answer.fieldErrors;
  // The summary's links: a placed team's errors go to its finishes input, an absent team's to its line.
  const ids = Object.fromEntries([
    ...placed.flatMap((t) => rowKeys(t.teamId, RESULT_FIELDS).map((k) => [k, resultInput('finishes', t.teamId)])),
    ...absent.flatMap((t) => rowKeys(t.teamId, RESULT_FIELDS).map((k) => [k, `absent-team-${t.teamId}`])),
  ]);
  return (
    <Form method="post" noValidate className="po-form" key={JSON.stringify(answer.values)}>
      <ErrorSummary
        fieldErrors={errors}
        formError={answer.formError}
        order={[...placed, ...absent].flatMap((t) => rowKeys(t.teamId, RESULT_FIELDS))}
        ids={ids}
      />
      <input type="hidden" name={SLOT_ORDER} value={answer.values[SLOT_ORDER] ?? ''} />
      <p className="fine">Read the finishes down the result screen, 0 to {maxFinishes} a team. Empty counts as 0.</p>
      <div className="ops-table-wrap" role="region" aria-labelledby="rows-caption" tabIndex={0}>
        <table className="ops-points st-results po-order">
          <caption id="rows-caption" className="visually-hidden">
            {lobby} in result order: one row per team placed
          </caption>
          <thead>
            <tr>
              <Heading short="Place" full="Place" />
              <Heading short="Slot" full="Slot" />
              <th scope="col">Team</th>
              <Heading short="Fin" full="Finishes" id="col-finishes" />
            </tr>
          </thead>
          <tbody>
            {placed.map((team, i) => (
              <PlacedRow key={team.teamId} team={team} place={i + 1} answer={answer} />
            ))}
          </tbody>
        </table>
      </div>
      {absent.length > 0 ? <AbsentTeams teams={absent} errors={errors} /> : null}
      <div className="po-buttons">
        <IntentButton intent={PLACEMENT_INTENT.save} pendingLabel="Saving…">
          Save results
        </IntentButton>
        <IntentButton intent={PLACEMENT_INTENT.change} className="button button-secondary">
          Change the order
        </IntentButton>
      </div>
    </Form>
  );
}

function PlacedRow({ team, place, answer }: { team: SlotTeam; place: number; answer: PlacementStep }) {
  const errors = answer.fieldErrors;
  const messages = rowKeys(team.teamId, RESULT_FIELDS).flatMap((k) => errors[k] ?? []);
  const errorId = `row-error-${team.teamId}`;
  const name = resultInput('finishes', team.teamId);
  return (
    <>
      <tr className={messages.length ? 'has-error' : undefined}>
        <td className="po-place">{place}</td>
        <td>{team.slot}</td>
        <TeamCell team={team} />
        <td>
          <NumberInput
            name={name}
            column="finishes"
            teamId={team.teamId}
            value={answer.values[name] ?? ''}
            errors={errors}
            describedBy={() => (messages.length ? errorId : undefined)}
          />
        </td>
      </tr>
      <RowErrors id={errorId} teamName={team.teamName} messages={messages} columns={4} />
    </>
  );
}

/** The teams the list left out, said before saving: they are saved as absent (decision 073). */
function AbsentTeams({ teams, errors }: { teams: readonly SlotTeam[]; errors: Record<string, string> }) {
  return (
    <div className="po-absent">
      <h2>Not in the result list: saved as absent</h2>
      <ul>
        {teams.map((t) => (
          <li key={t.teamId} id={`absent-team-${t.teamId}`}>
            Slot {t.slot} · {t.teamName}
            {rowKeys(t.teamId, RESULT_FIELDS)
              .flatMap((k) => errors[k] ?? [])
              .map((message) => (
                <p key={message} className="field-error">
                  <span aria-hidden="true">⚠ </span>
                  {message}
                </p>
              ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

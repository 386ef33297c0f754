import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireRight } from '~/utils/desk.server';
import { formEntries, formFailure } from '~/utils/forms.server';
import { AdvancePanel } from './advance-panel';
import { CheckInPanel } from './check-in-panel';
import { DrawPanel } from './draw-panel';
import { EntrantsPanel } from './entrants-panel';
import { FillSlotPanel } from './fill-slot-panel';
import { GroupsPanel } from './groups-panel';
import { INTENT_HANDLERS, intentContext, intentOf } from './intents.server';
import { ResultsPanel } from './results-panel';
import { RoomsPanel } from './rooms-panel';
import { SchedulePanel } from './schedule-panel';
import { SettingsPanel } from './settings-panel';
import { loadStagePage, stageIdOf } from './stage-page.server';
import '~/styles/screens.css';

// The stage control room (issue 18): one stage's settings, entrants, groups and slots, schedule, rooms,
// results and who advances. Each panel is a file beside this one; each form's intent a handler in intents.server.ts.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.stage.name}: ${data.t.name}` : 'Stage'} | Admin | Custom Room` },
  { name: 'description', content: 'One stage: settings, entrants, groups and slots, schedule, rooms, results and who advances.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  return loadStagePage(request, tid, stageIdOf(params.stageId));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const sid = stageIdOf(params.stageId);
  const formData = await request.formData();
  const intent = intentOf(formEntries(formData).intent);
  if (!intent) return formFailure({ formError: 'Unknown action.' });
  return INTENT_HANDLERS[intent](intentContext(request, tid, sid, formData, intent));
}

export default function AdminStage() {
  const page = useLoaderData<typeof loader>();
  const { t, stage, groups, slots, advance } = page;
  const base = `/admin/${t.id}/stages/${stage.id}`;
  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}/stages`}>Stages</Link>
      </p>
      <h1 id="ops-title">{stage.name}</h1>
      <p className="ops-subtitle">
        {t.name} · Stage {stage.order} · <span className={`badge ${stage.tone}`}>{stage.state}</span>
      </p>
      <p className="fine">
        Lobby {stage.lobbySize} · first slot {stage.firstSlot} · {stage.advance}
      </p>
      <SettingsPanel page={page} />
      {page.checkIn ? <CheckInPanel checkIn={page.checkIn} /> : null}
      <EntrantsPanel page={page} />
      <DrawPanel page={page} />
      {groups.length > 0 ? <GroupsPanel page={page} base={base} /> : null}
      {page.fill ? <FillSlotPanel fill={page.fill} /> : null}
      <SchedulePanel page={page} />
      {slots.length > 0 ? <RoomsPanel page={page} /> : null}
      {slots.length > 0 ? <ResultsPanel page={page} base={base} /> : null}
      {advance ? <AdvancePanel page={page} advance={advance} /> : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

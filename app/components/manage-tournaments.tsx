import { Form, Link, useLocation } from '@remix-run/react';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { SubmitButton } from '~/components/ui/submit-button';

export interface ManagedTournamentItem {
  id: number;
  name: string;
  game: string;
  status: string;
  starts: string;
  teams: string;
}

export const deletePath = (id: number) => `/admin/delete-tournament/${id}`;

/**
 * The organiser's tournament list (spec §2 manage-tournaments): Edit and Delete per tournament.
 * Delete is a link to a confirmation page, which works without JavaScript; with JavaScript the same
 * link opens a confirmation dialog that posts the same form.
 */
export function ManageTournaments({ tournaments, error }: { tournaments: ManagedTournamentItem[]; error: string | null }) {
  const location = useLocation();
  const returnTo = location.pathname;
  const dialog = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState<ManagedTournamentItem | null>(null);

  useEffect(() => {
    if (target && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [target]);
  // After the delete (a redirect back here), or any other navigation, the dialog is done.
  useEffect(() => {
    dialog.current?.close();
  }, [location.key]);

  function confirmInDialog(event: MouseEvent<HTMLAnchorElement>, t: ManagedTournamentItem) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setTarget(t);
  }

  return (
    <section className="admin-page" aria-labelledby="manage-title">
      <div className="admin-head">
        <h1 id="manage-title">Manage tournaments</h1>
        <Link className="button" to="/admin/add-tournament">
          Add tournament
        </Link>
      </div>
      {error ? (
        <div className="notice" role="alert">
          <p>{error}</p>
          <p>
            <a className="button button-secondary" href={returnTo}>
              Try again
            </a>
          </p>
        </div>
      ) : tournaments.length === 0 ? (
        <p className="admin-empty">No tournaments yet. Add the first one.</p>
      ) : (
        <ul className="admin-list">
          {tournaments.map((t) => (
            <li key={t.id} className="admin-item">
              <div className="admin-item-main">
                <h2 className="admin-item-name">
                  <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
                </h2>
                <p className="admin-item-facts">
                  {[t.game, t.status, t.starts ? `Starts ${t.starts}` : null, `Teams ${t.teams}`].filter(Boolean).join(' · ')}
                </p>
              </div>
              <div className="admin-item-actions">
                <Link className="button" to={`/admin/${t.id}`} aria-label={`Manage ${t.name}`}>
                  Manage
                </Link>
                <Link className="button button-secondary" to={`/admin/update-tournament/${t.id}`} aria-label={`Edit ${t.name}`}>
                  Edit
                </Link>
                <Link
                  className="button button-danger-outline"
                  to={`${deletePath(t.id)}?${new URLSearchParams({ returnTo })}`}
                  aria-label={`Delete ${t.name}`}
                  onClick={(e) => confirmInDialog(e, t)}
                >
                  Delete
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}

      <dialog ref={dialog} className="admin-dialog" aria-labelledby="delete-dialog-title" onClose={() => setTarget(null)}>
        {target ? (
          <>
            <h2 id="delete-dialog-title">Delete {target.name}?</h2>
            <p>Players will no longer see it. Its registrations ({target.teams} teams), matches and points are kept.</p>
            <Form method="post" action={deletePath(target.id)} className="form-actions">
              <input type="hidden" name="returnTo" value={returnTo} />
              <SubmitButton className="button button-danger" formPath={deletePath(target.id)} pendingLabel="Deleting…">
                Delete
              </SubmitButton>
              <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
                Cancel
              </button>
            </Form>
          </>
        ) : null}
      </dialog>
    </section>
  );
}

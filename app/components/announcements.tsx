import type { AnnouncementView } from '~/utils/announcements';

/** Issue 29: a tournament's or group's announcements, newest first. */
export function AnnouncementList({ items, showAuthor = true }: { items: readonly AnnouncementView[]; showAuthor?: boolean }) {
  return (
    <ul className="ann-list">
      {items.map((a) => (
        <li key={a.id}>
          <p className="ann-body">{a.body}</p>
          <p className="fine">
            To {a.audience === 'Everyone' ? 'everyone' : a.audience} · <time dateTime={a.at}>{a.when}</time>
            {showAuthor ? ` · ${a.author}` : null}
          </p>
        </li>
      ))}
    </ul>
  );
}

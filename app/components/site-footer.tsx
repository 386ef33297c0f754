import { Link } from '@remix-run/react';

export function SiteFooter({ social }: { social: { label: string; href: string }[] }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Footer">
        <ul>
          <li>
            <Link to="/">Home</Link>
          </li>
          <li>
            <Link to="/tournaments">Tournaments</Link>
          </li>
          <li>
            <Link to="/about">About</Link>
          </li>
          <li>
            <Link to="/organisers/apply">Organise with us</Link>
          </li>
        </ul>
      </nav>
      {social.length ? (
        <ul className="social-links" aria-label="Follow us">
          {social.map((s) => (
            <li key={s.label}>
              <a href={s.href} rel="noopener noreferrer" target="_blank">
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="copyright">© Custom Room Esports</p>
    </footer>
  );
}

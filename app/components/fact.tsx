import type { ReactNode } from 'react';

/** One label/value pair inside a <dl className="kv">. */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** ISO 8601 in UTC, the form every timestamp column holds (decision 004), of an instant the caller read from its clock. */
export const isoAt = (ms: number) => new Date(ms).toISOString();

// `replay --emit-sql`: the query as the SQL emitter made it (its notes are comment lines at its
// top, already free of line breaks); nothing else is printed, so it can be piped into a client.
import type { EmittedQuery } from '../../replay/sql/emit.js';
import type { StreamRenderers } from '../contract.js';

export const replaySqlOutput: StreamRenderers<EmittedQuery> = {
  stdout: (query, sink) => {
    sink.write(query.sql);
  },
};

/** Leases: who holds what (an avatar, the front end) until when, and its epoch, which grows with every new holder. */
export const sql = `
create table leases (
  name text primary key,
  holder text not null,
  epoch bigint not null,
  expires_at timestamptz not null
);
`;

import type { AccessLevel, AssignedUser, User } from '@pivot/contracts';
import type { UserRow } from './users.table';

/** Today as YYYY-MM-DD in UTC: a subscription stays active through its expiry day. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function presentUser(row: UserRow): User {
  const expiry = row.subscriptionExpiryDate;
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    company_name: row.company,
    email: row.email,
    phone: row.phone,
    subscription: { active: expiry === null || expiry >= today(), expiry_date: expiry },
    admin: row.admin,
    language: row.language,
    activated: row.activatedAt !== null,
  };
}

/** A user as a machine's list of who may use it shows them, with the level of their grant. */
export function presentAssignedUser(user: UserRow, level: AccessLevel): AssignedUser {
  return { id: user.id, first_name: user.firstName, last_name: user.lastName, email: user.email, level };
}

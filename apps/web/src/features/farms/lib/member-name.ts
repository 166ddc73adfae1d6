/** A member as the farm's screen names them: their name, or their email while they have none. */
export function memberName(member: { first_name: string; last_name: string; email: string }): string {
  return `${member.first_name} ${member.last_name}`.trim() || member.email;
}

import { describe, expect, it } from 'vitest';
import {
  mayRemove,
  mayRename,
  mayRequireSecondFactor,
  rolesToGive,
  rolesToInvite,
  runsFarm,
  standingOf,
} from './farm-rules';

describe("the farm screen's rules (docs/roles.md)", () => {
  it("take the server's administrator as the operator, member or not", () => {
    expect(standingOf(true, null)).toBe('operator');
    expect(standingOf(true, 'member')).toBe('operator');
    expect(standingOf(false, 'manager')).toBe('manager');
    expect(standingOf(false, null)).toBeNull();
  });

  it('let owners and the operator rename a farm, and managers run it without renaming it', () => {
    expect(mayRename('operator')).toBe(true);
    expect(mayRename('owner')).toBe(true);
    expect(mayRename('manager')).toBe(false);
    expect(runsFarm('manager')).toBe(true);
    expect(runsFarm('member')).toBe(false);
    expect(runsFarm(null)).toBe(false);
  });

  it('offer owners every role, managers only member and manager, and no manager an owner to change', () => {
    expect(rolesToGive('owner', 'owner')).toEqual(['owner', 'manager', 'member']);
    expect(rolesToGive('operator', 'member')).toEqual(['owner', 'manager', 'member']);
    expect(rolesToGive('manager', 'member')).toEqual(['manager', 'member']);
    expect(rolesToGive('manager', 'manager')).toEqual(['manager', 'member']);
    expect(rolesToGive('manager', 'owner')).toEqual([]);
  });

  it('let the viewer remove whom they may handle, but not themselves (they leave)', () => {
    expect(mayRemove('manager', { id: 2, role: 'member' }, 1)).toBe(true);
    expect(mayRemove('manager', { id: 2, role: 'owner' }, 1)).toBe(false);
    expect(mayRemove('owner', { id: 2, role: 'owner' }, 1)).toBe(true);
    expect(mayRemove('owner', { id: 1, role: 'owner' }, 1)).toBe(false);
  });

  it('let owners and the operator invite in any role, managers not as owner', () => {
    expect(rolesToInvite('owner')).toEqual(['owner', 'manager', 'member']);
    expect(rolesToInvite('operator')).toEqual(['owner', 'manager', 'member']);
    expect(rolesToInvite('manager')).toEqual(['manager', 'member']);
  });

  it('let owners and the operator require two-step sign-in, not managers', () => {
    expect(mayRequireSecondFactor('owner')).toBe(true);
    expect(mayRequireSecondFactor('operator')).toBe(true);
    expect(mayRequireSecondFactor('manager')).toBe(false);
  });
});

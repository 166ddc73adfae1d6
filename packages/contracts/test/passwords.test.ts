import { describe, expect, it } from 'vitest';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_RULES,
  PasswordInputSchema,
  brokenPasswordRules,
} from '../src/passwords';
import { expectRejected } from './support';

describe('password rules (docs/product.md#validation)', () => {
  it('asks for at least 8 characters', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(8);
  });

  it('checks length, lower case, upper case, digit and special character', () => {
    expect([...PASSWORD_RULES]).toEqual(['min_length', 'lowercase', 'uppercase', 'digit', 'special']);
  });
});

describe('brokenPasswordRules', () => {
  it.each(['Irrigate#2026', 'Abcdef1!', 'P@ssw0rd with spaces', 'Zażółć gęślą 1!'])('accepts %j', (password) => {
    expect(brokenPasswordRules(password)).toEqual([]);
  });

  it.each([
    ['min_length', 'Abc1!xy'],
    ['lowercase', 'ABCDEF1!'],
    ['uppercase', 'abcdef1!'],
    ['digit', 'Abcdefg!'],
    ['special', 'Abcdefg1'],
  ])('reports %s alone for %j', (rule, password) => {
    expect(brokenPasswordRules(password)).toEqual([rule]);
  });

  it('reports every rule for an empty password, in the order of PASSWORD_RULES', () => {
    expect(brokenPasswordRules('')).toEqual([...PASSWORD_RULES]);
  });

  it('reports several rules at once', () => {
    expect(brokenPasswordRules('abc')).toEqual(['min_length', 'uppercase', 'digit', 'special']);
  });

  it.each([
    ['Polish lower-case letters', 'ŻÓŁW123!ąę', []],
    ['Polish upper-case letters', 'żółw123!ĄĘ', []],
    ['only Polish lower-case letters besides digit and sign', 'żółwźć1!', ['uppercase']],
    ['only Polish upper-case letters besides digit and sign', 'ŻÓŁWŹĆ1!', ['lowercase']],
    ['Greek letters', 'Ωmega12!αβ', []],
  ])('counts unicode letters: %s', (_label, password, broken) => {
    expect(brokenPasswordRules(password)).toEqual(broken);
  });

  it('does not take a letter for a special character', () => {
    expect(brokenPasswordRules('Zażółćgęślą1')).toEqual(['special']);
  });

  it('does not take a space for a special character', () => {
    expect(brokenPasswordRules('Abc def 1')).toEqual(['special']);
  });

  it('does not take the combining accent of a decomposed letter for a special character', () => {
    const decomposed = 'Cafe\u0301 Noir 1';
    expect(brokenPasswordRules(decomposed)).toEqual(['special']);
    expect(brokenPasswordRules(`${decomposed}!`)).toEqual([]);
  });

  it.each(['_', '-', '€', '🌧', '.'])('counts %j as a special character', (sign) => {
    expect(brokenPasswordRules(`Abcdefg1${sign}`)).toEqual([]);
  });

  it('counts characters, not UTF-16 code units', () => {
    // Seven characters, the emoji taking two code units: still too short.
    const sevenCharacters = 'Ab1🌧cde';
    expect(sevenCharacters.length).toBe(8);
    expect(brokenPasswordRules(sevenCharacters)).toEqual(['min_length']);
    expect(brokenPasswordRules(`${sevenCharacters}f`)).toEqual([]);
  });
});

describe('PasswordInputSchema', () => {
  it('accepts any non-empty password up to the maximum, rules aside', () => {
    expect(PasswordInputSchema.parse('x')).toBe('x');
    expect(PasswordInputSchema.parse('a'.repeat(MAX_PASSWORD_LENGTH))).toHaveLength(MAX_PASSWORD_LENGTH);
  });

  it('keeps the password as typed, spaces included', () => {
    expect(PasswordInputSchema.parse('  Secret 1! ')).toBe('  Secret 1! ');
  });

  it.each([
    ['an empty password', ''],
    ['a password over the maximum', 'a'.repeat(MAX_PASSWORD_LENGTH + 1)],
    ['a number', 12345678],
    ['null', null],
  ])('rejects %s', (_label, password) => {
    expectRejected(PasswordInputSchema, password);
  });
});

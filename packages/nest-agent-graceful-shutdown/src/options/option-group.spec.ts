import {
  resolveOptionGroup,
  uniformOptionGroup,
  type OptionGroupDeclaration,
  type OptionRule,
} from './option-group.js';

interface Sizes {
  small?: number;
  large?: number;
}

const DEFAULTS = { small: 1, large: 10 } as const;
const wholeNumber: OptionRule = {
  accepts: (value) => Number.isInteger(value) && (value as number) >= 0,
  says: 'a whole number ≥ 0',
};
const SIZES = uniformOptionGroup<Sizes>(DEFAULTS, wholeNumber);
const sizes = (options: Sizes, declaration = SIZES) =>
  resolveOptionGroup('sizes', declaration, options);

interface Pool {
  sizeMs?: number;
  checkMs?: number;
  name?: string;
  tags?: string[];
  mode?: 'fast' | 'safe';
}

const POOL = {
  sizeMs: { rule: wholeNumber, default: 900 },
  checkMs: { rule: wholeNumber, derive: ({ sizeMs }) => sizeMs / 3 },
  name: {
    rule: { accepts: (value) => typeof value === 'string', says: 'a string', error: TypeError },
    default: undefined,
  },
  tags: {
    rule: { accepts: Array.isArray, says: 'an array of tags', error: TypeError },
    default: ['a'],
  },
  mode: {
    rule: { accepts: (value) => value === 'fast' || value === 'safe', says: "'fast' or 'safe'" },
    default: 'safe',
  },
} satisfies OptionGroupDeclaration<Pool>;
const pool = (options: Pool) => resolveOptionGroup('pool', POOL, options);

describe('resolveOptionGroup', () => {
  it('fills in the defaults of the values not given', () => {
    expect(sizes({ large: 20 })).toEqual({ small: 1, large: 20 });
  });

  it('takes undefined as not given', () => {
    expect(sizes({ small: undefined })).toEqual(DEFAULTS);
  });

  it('refuses a value the rule does not accept, naming the option and what it must be', () => {
    expect(() => sizes({ small: -1 })).toThrow(
      new RangeError('sizes.small must be a whole number ≥ 0, got -1'),
    );
  });

  it('refuses a key the group does not have with a TypeError listing the ones it has', () => {
    expect(() => sizes({ smal: 2 } as Sizes)).toThrow(
      new TypeError('sizes.smal is not an option; sizes takes small, large'),
    );
  });

  it("throws the rule's error class", () => {
    expect(() =>
      sizes(
        { large: 1.5 },
        uniformOptionGroup<Sizes>(DEFAULTS, { ...wholeNumber, error: TypeError }),
      ),
    ).toThrow(TypeError);
  });

  it('applies each option its own default, leaving an option declared without one undefined', () => {
    expect(pool({})).toEqual({
      sizeMs: 900,
      checkMs: 300,
      name: undefined,
      tags: ['a'],
      mode: 'safe',
    });
  });

  it('derives a default from the values of the group, given or defaulted', () => {
    expect(pool({ sizeMs: 60 })).toMatchObject({ sizeMs: 60, checkMs: 20 });
  });

  it('keeps a given value of a derived option', () => {
    expect(pool({ sizeMs: 60, checkMs: 5 })).toMatchObject({ checkMs: 5 });
  });

  it('checks each option against its own rule, naming the option', () => {
    expect(() => pool({ mode: 'slow' as 'fast' })).toThrow(
      new RangeError("pool.mode must be 'fast' or 'safe', got 'slow'"),
    );
    expect(() => pool({ name: 7 as unknown as string })).toThrow(
      new TypeError('pool.name must be a string, got 7'),
    );
  });

  it('checks a value given to an option without a default', () => {
    expect(pool({ name: 'main' })).toMatchObject({ name: 'main' });
  });

  it('shows an object or a function by its kind in the message', () => {
    expect(() => pool({ tags: { a: 1 } as unknown as string[] })).toThrow(
      'pool.tags must be an array of tags, got an object',
    );
    expect(() => pool({ sizeMs: (() => 1) as unknown as number })).toThrow(
      'pool.sizeMs must be a whole number ≥ 0, got a function',
    );
  });

  it('gives each resolution its own copy of an array default', () => {
    const first = pool({});
    first.tags.push('b');
    expect(pool({}).tags).toEqual(['a']);
    expect(POOL.tags.default).toEqual(['a']);
  });
});

import { describe, expect, it } from 'vitest';
import { jsonSyntaxMessage, lineColumn } from '../../../../electron/engine/bundle/json-syntax.js';

const messageFor = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxMessage(text, error);
  }
  throw new Error('expected a syntax error');
};

describe('JSON syntax errors with line and column (positions counted by hand, 1-based)', () => {
  it('lineColumn counts lines by "\\n" and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });

  it("V8's \"at position N\" becomes line and column", () => {
    // Line 3 is `  "b": 2`: the '"' opening "b" is its 3rd character, where a ',' was expected.
    expect(messageFor('{\n  "a": 1\n  "b": 2\n}')).toBe("Expected ',' or '}' after property value at line 3, column 3");
    // `{'a': 1}`: the quote at offset 1 is column 2.
    expect(messageFor("{'a': 1}")).toBe("Expected property name or '}' at line 1, column 2");
  });

  it("V8's excerpt form (no position) is located by the longest valid prefix", () => {
    // Line 3 is `  "frameRate": }`: the '}' is its 16th character.
    expect(messageFor('{\n  "sampleRate": 16000,\n  "frameRate": }\n')).toBe("Unexpected token '}' at line 3, column 16");
    // `[1, 2,,]`: the second ',' is at offset 6, column 7.
    expect(messageFor('[1, 2,,]')).toBe("Unexpected token ',' at line 1, column 7");
    // A long line, shown by V8 as an excerpt with "...": '{"' + 47 a's + '": 1, "b": ' is 60 characters, so '}' is column 61.
    const long = `{"${'a'.repeat(47)}": 1, "b": }, "${'c'.repeat(47)}": 3}`;
    expect(messageFor(long)).toBe("Unexpected token '}' at line 1, column 61");
  });

  it('an error with no place is left as it is', () => {
    expect(messageFor('')).toBe('Unexpected end of JSON input');
  });
});

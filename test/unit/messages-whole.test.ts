import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Messages read whole in the source: where a message is wrapped as `'...' + '...'`, each break falls at a clause
// boundary, so grepping the source for a phrase of the message finds it. Refused: a short stub piece, a break
// inside a word, a lone article at the end of a piece. The Python side has the same rule for implicit
// concatenation (python/tests/test_messages_whole.py).
const SHORTEST_PIECE = 14;
const ARTICLE_AT_END = /(?:^|\W)(?:a|an|the)\s*$/i;
const WORD = /\w/;

type Piece = ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression;
const isPiece = (node: ts.Node): node is Piece => ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
const isPlus = (node: ts.Node): node is ts.BinaryExpression => ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken;

/** The source text between the quotes or backticks of a literal (placeholders kept as written). */
const pieceText = (piece: Piece): string => piece.getText().slice(1, -1);

/** One line per break of a `'...' + '...'` chain that splits a phrase. */
function phraseSplits(source: string, fileName: string): string[] {
  if (!/['"`]\s*\+/.test(source)) return []; // no literal followed by `+`: nothing to parse for
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isPlus(node) && !isPlus(node.parent)) {
      const operands: ts.Expression[] = [];
      const flatten = (e: ts.Expression): void => {
        if (isPlus(e)) {
          flatten(e.left);
          flatten(e.right);
        } else operands.push(e);
      };
      flatten(node);
      for (let i = 0; i + 1 < operands.length; i++) {
        const [a, b] = [operands[i], operands[i + 1]];
        if (!isPiece(a) || !isPiece(b)) continue;
        const [left, right] = [pieceText(a), pieceText(b)];
        const line = file.getLineAndCharacterOfPosition(a.getStart()).line + 1;
        const where = `${fileName}:${line}: ${JSON.stringify(left.slice(-20))} + ${JSON.stringify(right.slice(0, 20))}`;
        if (left.length < SHORTEST_PIECE || right.length < SHORTEST_PIECE) {
          const short = left.length < SHORTEST_PIECE ? left : right;
          problems.push(`${where}: the piece ${JSON.stringify(short)} is a stub (under ${SHORTEST_PIECE} characters)`);
        } else if (WORD.test(left.at(-1) ?? '') && WORD.test(right[0] ?? '')) {
          problems.push(`${where}: the break falls inside a word`);
        } else if (ARTICLE_AT_END.test(left)) {
          problems.push(`${where}: the break parts an article from its noun`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

describe('messages read whole in the source', () => {
  it('no message in electron/ or renderer/ is split mid-phrase', () => {
    const files = [...sourceFiles('electron'), ...sourceFiles('renderer')];
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((path) => phraseSplits(readFileSync(path, 'utf8'), path));
    expect(problems, 'rewrap these at a clause boundary, same words').toEqual([]);
  });

  it('finds each kind of split in planted code, and passes breaks at clause boundaries', () => {
    const planted = [
      'throw new Error(`step ${n}: a captured graph replays the shapes it was captured with; write each ` +',
      "  'step ' +",
      "  'in place at its position');",
      "throw new Error('boolean-mask indexing: the length depends on the val' + 'ues of this step');",
      "throw new Error('pick from one stacked tensor with a ' + 'device index (index_select) instead');",
      "const fine = 'a captured graph replays the shapes it was captured with; ' + 'preallocate a max-size buffer';",
      "const sum = 'a' + value;",
    ].join('\n');
    const problems = phraseSplits(planted, 'planted.ts');
    expect(problems.map((p) => p.split(': ')[0])).toEqual(['planted.ts:1', 'planted.ts:2', 'planted.ts:4', 'planted.ts:5']);
    expect(problems[0]).toContain('"step " is a stub');
    expect(problems[2]).toMatch(/inside a word$/);
    expect(problems[3]).toMatch(/parts an article from its noun$/);
  });
});

import type { Node } from 'web-tree-sitter';

/**
 * Whether the grammar's tree under `root` nests more than `limit` levels. Iterative (a tree
 * cursor), so it is safe on any tree; it stops at the first node past the limit.
 */
export function treeDepthExceeds(root: Node, limit: number): boolean {
  const cursor = root.walk();
  try {
    let depth = 0;
    for (;;) {
      if (cursor.gotoFirstChild()) {
        depth++;
        if (depth > limit) return true;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return false;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

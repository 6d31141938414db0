// Leaves in words, for messages: `path $startsWith "/api"`, `header "x-monitor" $exists`.
import type { Leaf } from '../semantics/model.js';

export function describeField(leaf: Leaf): string {
  return leaf.fieldOption === undefined ? leaf.conditionType : `${leaf.conditionType} ${JSON.stringify(leaf.fieldOption)}`;
}

export function describeLeaf(leaf: Leaf): string {
  const value = leaf.value === undefined ? '' : ` ${JSON.stringify(leaf.value)}`;
  return `${describeField(leaf)} ${leaf.operator}${value}`;
}

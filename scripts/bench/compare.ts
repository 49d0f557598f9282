// Whether two JSON answers are the same document; where not, the first place they differ.
export function firstDifference(ours: unknown, theirs: unknown, at = '$'): string | null {
  if (Array.isArray(ours) || Array.isArray(theirs)) {
    if (!Array.isArray(ours) || !Array.isArray(theirs)) return `${at}: array vs not`;
    if (ours.length !== theirs.length) return `${at}: ${ours.length} vs ${theirs.length} items`;
    for (let i = 0; i < ours.length; i++) {
      const d = firstDifference(ours[i], theirs[i], `${at}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (ours && theirs && typeof ours === 'object' && typeof theirs === 'object') {
    const a = Object.keys(ours).sort();
    const b = Object.keys(theirs).sort();
    if (a.join() !== b.join()) return `${at}: keys ${a.join(',')} vs ${b.join(',')}`;
    for (const key of a) {
      const d = firstDifference(
        (ours as Record<string, unknown>)[key],
        (theirs as Record<string, unknown>)[key],
        `${at}.${key}`,
      );
      if (d) return d;
    }
    return null;
  }
  return ours === theirs ? null : `${at}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`;
}

/**
 * What is wrong with a Content-Security-Policy, source by source, per the CSP Level 3 grammar.
 * Browsers skip an invalid source and log an error (as "http://[::1]:*" once did): a policy that
 * reads fine to a person may still not say what it seems to.
 */

const KEYWORDS = new Set([
  "'self'",
  "'none'",
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'unsafe-hashes'",
  "'strict-dynamic'",
  "'report-sample'",
  "'wasm-unsafe-eval'",
]);
const DIRECTIVE_NAME = /^[a-z-]+$/;
const SCHEME_SOURCE = /^[a-z][a-z0-9+.-]*:$/i;
// scheme://host:port/path, where a host is '*', '*.' + labels, or labels of letters, digits and
// '-': no brackets, so no IPv6 literal can be named.
const HOST_SOURCE =
  /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(?:\d+|\*))?(?:\/[^\s;,]*)?$/i;
const NONCE_OR_HASH = /^'(?:nonce|sha256|sha384|sha512)-[A-Za-z0-9+/_=-]+'$/;

export function cspProblems(policy: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (!name) continue;
    if (!DIRECTIVE_NAME.test(name)) problems.push(`bad directive name ${name}`);
    if (seen.has(name)) problems.push(`${name} given twice`);
    seen.add(name);
    if (sources.includes("'none'") && sources.length > 1)
      problems.push(`${name}: 'none' with other sources`);
    for (const source of sources) {
      const valid =
        KEYWORDS.has(source) ||
        SCHEME_SOURCE.test(source) ||
        HOST_SOURCE.test(source) ||
        NONCE_OR_HASH.test(source);
      if (!valid) problems.push(`${name}: invalid source ${source}`);
    }
  }
  return problems;
}

import { describe, expect, it } from 'vitest';
import { pythonScript, rScript, type ScriptInput } from './script-snippets';

const STUDY = 'c0000000-0000-4000-8000-000000000001';
const LIST = `/api/studies/${STUDY}/exports`;

const input = (over: Partial<ScriptInput['body']> = {}): ScriptInput => ({
  baseUrl: 'https://research.example.org',
  studyId: STUDY,
  body: {
    name: 'Pilot "week"',
    participantIds: ['P0000000000000001', 'P0000000000000002'],
    dataTypes: ['heartrate_intraday_1min', 'sleep_log'],
    dateRange: { startDate: '2026-11-01', endDate: '2026-11-03' },
    formats: ['parquet', 'csv'],
    minuteGrid: true,
    includeRaw: false,
    ...over,
  },
});

/** The dict after `body = ` in the Python script, read back as JSON. */
function pythonBody(code: string): unknown {
  const literal = code.match(/^body = (\{[\s\S]*?^\})$/m)?.[1] ?? '';
  return JSON.parse(
    literal
      .replace(/\bTrue\b/g, 'true')
      .replace(/\bFalse\b/g, 'false')
      .replace(/,(\s*[\]}])/g, '$1'),
  );
}

describe('Python script', () => {
  it('lists, starts with the selection as the JSON body, polls and downloads, with the token from WRP_TOKEN', () => {
    const code = pythonScript(input());
    expect(code).toContain('BASE_URL = "https://research.example.org"');
    expect(code).toContain(
      'session.headers["Authorization"] = "Bearer " + os.environ["WRP_TOKEN"]',
    );
    expect(code).toContain(`api("GET", "${LIST}").json()["exports"]`);
    expect(code).toContain(`api("POST", "${LIST}", json=body)`);
    expect(code).toContain(`api("GET", "${LIST}/" + export_id).json()["export"]`);
    expect(code).toContain(`api("GET", "${LIST}/" + export_id + "/archive", stream=True)`);
    expect(code).toContain('if export["status"] == "completed":');
    expect(pythonBody(code)).toEqual({
      name: 'Pilot "week"',
      participantIds: ['P0000000000000001', 'P0000000000000002'],
      dataTypes: ['heartrate_intraday_1min', 'sleep_log'],
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-03' },
      formats: ['parquet', 'csv'],
      minuteGrid: true,
      includeRaw: false,
    });
    // No token in the script itself.
    expect(code).not.toMatch(/Bearer [A-Za-z0-9]/);
  });

  it('leaves out an empty name and puts a long participant list one id a line', () => {
    const ids = Array.from({ length: 6 }, (_, i) => `P000000000000000${i}`);
    const code = pythonScript(input({ name: '  ', participantIds: ids, includeRaw: true }));
    expect(code).not.toContain('"name":');
    expect(code).toContain('    "participantIds": [\n        "P0000000000000000",\n');
    expect(pythonBody(code)).toMatchObject({ participantIds: ids, includeRaw: true });
  });
});

describe('R script', () => {
  it('uses httr2 with the Bearer token from WRP_TOKEN and the same URLs and body', () => {
    const code = rScript(input());
    expect(code).toContain('library(httr2)');
    expect(code).toContain('base_url <- "https://research.example.org"');
    expect(code).toContain('token <- Sys.getenv("WRP_TOKEN")');
    expect(code).toContain('req_auth_bearer_token(request(paste0(base_url, path)), token)');
    expect(code).toContain(`req_perform(api("${LIST}"))`);
    expect(code).toContain(`started <- api("${LIST}") |>`);
    expect(code).toContain(`api(paste0("${LIST}/", export_id))`);
    expect(code).toContain(`api(paste0("${LIST}/", export_id, "/archive")), path = `);
    // Arrays stay arrays (list(), not c()), booleans are R's, and no comma before a ')'.
    expect(code).toContain(
      [
        '  req_body_json(list(',
        '    name = "Pilot \\"week\\"",',
        '    participantIds = list("P0000000000000001", "P0000000000000002"),',
        '    dataTypes = list("heartrate_intraday_1min", "sleep_log"),',
        '    dateRange = list(startDate = "2026-11-01", endDate = "2026-11-03"),',
        '    formats = list("parquet", "csv"),',
        '    minuteGrid = TRUE,',
        '    includeRaw = FALSE',
        '  )) |>',
      ].join('\n'),
    );
    expect(code).not.toMatch(/,\s*\)/);
  });
});

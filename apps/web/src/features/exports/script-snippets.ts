/**
 * The R and Python scripts of the Data export tab: list the study's exports, start one of the
 * form's selection, wait for it and download its ZIP. Pure functions of the form, so the code a
 * researcher copies is tested like any other output. URLs come from the contracts' operations.
 */

import { EXPORT_SCRIPT_COMMENTS as C, exportsApi, type StartExportBody } from '@research/contracts';

export interface ScriptInput {
  /** Where the platform answers: the page's own origin. */
  baseUrl: string;
  studyId: string;
  body: StartExportBody;
}

/** The environment variable the scripts read the access token from. */
export const TOKEN_VARIABLE = 'WRP_TOKEN';

/** A line longer than this puts each item of a list on a line of its own. */
const INLINE_WIDTH = 72;

/** The operations' paths with the study filled in; an export's id splits them in two. */
function pathsOf(studyId: string) {
  const fill = (path: string) => path.replace(/:id(?=\/|$)/, encodeURIComponent(studyId));
  const split = (path: string) => {
    const [head = '', tail = ''] = fill(path).split(':exportId');
    return { head, tail };
  };
  return {
    list: fill(exportsApi.listExports.path),
    start: fill(exportsApi.startExport.path),
    one: split(exportsApi.getExport.path),
    archive: split(exportsApi.downloadExport.path),
  };
}

/** The request body in the order a reader expects; no name when the form has none. */
function orderedBody(body: StartExportBody): Record<string, unknown> {
  return {
    ...(body.name?.trim() ? { name: body.name.trim() } : {}),
    participantIds: body.participantIds,
    dataTypes: body.dataTypes,
    dateRange: { startDate: body.dateRange.startDate, endDate: body.dateRange.endDate },
    formats: body.formats,
    minuteGrid: body.minuteGrid ?? true,
    includeRaw: body.includeRaw ?? false,
  };
}

interface Syntax {
  string: (value: string) => string;
  boolean: (value: boolean) => string;
  null: string;
  list: (items: string[]) => { open: string; close: string };
  dict: { open: string; close: string; entry: (key: string, value: string) => string };
}

/** JSON's string escapes (\", \\, \n, \uXXXX) read the same in Python and in R. */
const quote = (value: string) => JSON.stringify(value);

const PYTHON: Syntax = {
  string: quote,
  boolean: (value) => (value ? 'True' : 'False'),
  null: 'None',
  list: () => ({ open: '[', close: ']' }),
  dict: { open: '{', close: '}', entry: (key, value) => `${quote(key)}: ${value}` },
};

const R: Syntax = {
  string: quote,
  boolean: (value) => (value ? 'TRUE' : 'FALSE'),
  null: 'NULL',
  // list(), not c(): httr2 writes a vector of one as a bare value, and the API wants arrays.
  list: () => ({ open: 'list(', close: ')' }),
  dict: { open: 'list(', close: ')', entry: (key, value) => `${key} = ${value}` },
};

/** A value as a literal of the language, indented by `indent`, wrapped when a line gets long. */
function literal(value: unknown, syntax: Syntax, indent: string, step: string): string {
  if (typeof value === 'string') return syntax.string(value);
  if (typeof value === 'boolean') return syntax.boolean(value);
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined) return syntax.null;
  const inner = indent + step;
  const { open, close, parts } = Array.isArray(value)
    ? {
        ...syntax.list(value),
        parts: value.map((item) => literal(item, syntax, inner, step)),
      }
    : {
        ...syntax.dict,
        parts: Object.entries(value as Record<string, unknown>).map(([key, item]) =>
          syntax.dict.entry(key, literal(item, syntax, inner, step)),
        ),
      };
  const inline = `${open}${parts.join(', ')}${close}`;
  if (inline.length + indent.length <= INLINE_WIDTH && !inline.includes('\n')) return inline;
  return `${open}\n${parts.map((part) => `${inner}${part},`).join('\n')}\n${indent}${close}`;
}

/** R's lists take no trailing comma: drop the one before each closing parenthesis. */
const withoutTrailingCommas = (code: string) => code.replace(/,(\n\s*\))/g, '$1');

/** Python with requests: one session carries the Bearer token on every call. */
export function pythonScript({ baseUrl, studyId, body }: ScriptInput): string {
  const paths = pathsOf(studyId);
  const exportUrl = (p: { head: string; tail: string }) =>
    `${quote(p.head)} + export_id${p.tail ? ` + ${quote(p.tail)}` : ''}`;
  return `import os
import time

import requests

BASE_URL = ${quote(baseUrl)}

# ${C.token}
session = requests.Session()
session.headers["Authorization"] = "Bearer " + os.environ[${quote(TOKEN_VARIABLE)}]


def api(method, path, **kwargs):
    response = session.request(method, BASE_URL + path, **kwargs)
    response.raise_for_status()
    return response


# ${C.list}
for export in api("GET", ${quote(paths.list)}).json()["exports"]:
    print(export["name"], export["status"], export["createdAt"])

# ${C.start}
body = ${literal(orderedBody(body), PYTHON, '', '    ')}
export_id = api("POST", ${quote(paths.start)}, json=body).json()["export"]["id"]

# ${C.poll}
while True:
    export = api("GET", ${exportUrl(paths.one)}).json()["export"]
    print(export["status"], export["progress"]["percent"], "%")
    if export["status"] == "completed":
        break
    if export["status"] == "failed":
        raise RuntimeError(export["error"])
    time.sleep(5)

# ${C.download}
with api("GET", ${exportUrl(paths.archive)}, stream=True) as response:
    with open("export-" + export_id + ".zip", "wb") as file:
        for chunk in response.iter_content(chunk_size=1 << 20):
            file.write(chunk)
`;
}

/** R with httr2: every request gets the Bearer token; an HTTP error stops the script. */
export function rScript({ baseUrl, studyId, body }: ScriptInput): string {
  const paths = pathsOf(studyId);
  const exportPath = (p: { head: string; tail: string }) =>
    `paste0(${quote(p.head)}, export_id${p.tail ? `, ${quote(p.tail)}` : ''})`;
  const bodyLiteral = withoutTrailingCommas(literal(orderedBody(body), R, '  ', '  '));
  return `library(httr2)

base_url <- ${quote(baseUrl)}
# ${C.token}
token <- Sys.getenv(${quote(TOKEN_VARIABLE)})
api <- function(path) req_auth_bearer_token(request(paste0(base_url, path)), token)

# ${C.list}
exports <- resp_body_json(req_perform(api(${quote(paths.list)})))$exports
for (e in exports) cat(e$name, e$status, e$createdAt, "\\n")

# ${C.start}
started <- api(${quote(paths.start)}) |>
  req_body_json(${bodyLiteral}) |>
  req_perform() |>
  resp_body_json()
export_id <- started$export$id

# ${C.poll}
repeat {
  current <- resp_body_json(req_perform(api(${exportPath(paths.one)})))$export
  cat(current$status, current$progress$percent, "%\\n")
  if (current$status == "completed") break
  if (current$status == "failed") stop(current$error)
  Sys.sleep(5)
}

# ${C.download}
req_perform(api(${exportPath(paths.archive)}), path = paste0("export-", export_id, ".zip"))
`;
}

// One help text a command: `cloudtel campaign run --help` answers with what `run` takes, not
// with everything the CLI does.
import { BATCH_MAX_MESSAGES } from '../../../api';
import { RUN_DEFAULTS } from '../errors';

const RUN_OPTIONS = `  --csv FILE                 the recipients; the first line is the header (- reads stdin)
  --property SID             the PropertySid to send from
  --text TEMPLATE            the message; {{Column}} is replaced by that column's value
  --from SENDER              E.164 number or alphanumeric ID; omitted: a leased number
  --to-column NAME           the column with the numbers (default: To, Phone or Mobile)
  --default-country CC       country of numbers written without +, such as AU
  --name NAME                campaign name, in every ExternalId (default: the CSV's name)
  --db FILE|URL              the ledger: a SQLite file or a postgres:// URL
                             (default: CLOUDTEL_DB, else cloudtel.db)
  --rate N                   messages per second, 0 for no limit (default: ${RUN_DEFAULTS.rate})
  --batch-size N             messages per BatchMessages request, at most ${BATCH_MAX_MESSAGES} (default: ${RUN_DEFAULTS.batchSize})
  --concurrency N            requests in flight (default: ${RUN_DEFAULTS.concurrency})
  --schedule ISO-TIME        send at that time (the provider holds messages up to 14 days ahead)
  --send-window HH:MM-HH:MM  sending hours: messages go out only between these local times
  --time-zone ZONE           zone of the send window: Windows ID or IANA name
  --time-zone-column NAME    a per-row zone, overriding --time-zone
  --consent-column NAME      where each number's consent came from; kept per number, the
                             first time it is seen (cloudtel campaign evidence shows it)
  --consent-at-column NAME   when it was given (ISO 8601 or YYYY-MM-DD)
  --require-consent          a row whose number has no consent, in the list or recorded
                             before, is invalid (NO_CONSENT)
  --delimiter C              the CSV delimiter (default: a sep=C first line, else the header's)
  --encoding NAME            the CSV's encoding when it is not UTF-8 (or UTF-16 with a BOM):
                             windows-1252 (Excel's "CSV (Comma delimited)") or latin1
  --smart-encoding           send typographic characters (curly quotes, dashes, ellipsis,
                             non-breaking space...) as their GSM-7 equivalents: fewer segments
  --track-links              every http(s) URL in the text becomes a short link of its own per
                             recipient, served and counted by a \`cloudtel worker\` (needs --link-base)
  --link-base URL            where those links point: a domain aimed at the worker, such as
                             https://go.example.com, or its {publicUrl}/l
  --variant TEXT             another text to test against --text (repeat, up to five texts in
                             all): the test share gets them by turns, the rest gets the winner
  --test-share FRACTION      the share of the list in the variants' test (default: 0.2)
  --winner-by MEASURE        delivered, replies, clicks (needs --track-links) or optouts (the
                             fewest) (default: replies)
  --decide-after DURATION    the wait after the test's last send, such as 2h or 30m (default: 2h);
                             the run exits 4 until then, and the same command after it goes on
  --winner N                 decide the variants by hand now: text N (1 is --text) wins
  --out FILE                 write one CSV line per input row with its outcome (a dry run adds
                             each valid row's rendered text and segments)
  --dry-run                  validate and count, send nothing: segments and cost, what makes
                             messages UCS-2, countries and the estimated finish
  --price-per-segment N      the price of one segment, for the dry run's cost and --max-cost
  --countries AU,NZ          send only to numbers of these countries; others end invalid
                             (COUNTRY_NOT_ALLOWED)
  --allow-landlines          send to fixed-line-only numbers too (else invalid: NOT_MOBILE)
  --registered-sender-ids A,B
                             alphanumeric --from IDs in Australia's SMS Sender ID Register;
                             a dry run warns of any other sent to Australian numbers
  --daily-max-cost AMOUNT    pause (exit 4) before a message would take the day's spend
                             across this ledger's campaigns past AMOUNT (day of --time-zone)
  --max-cost AMOUNT          pause (exit 4) before a message would take the campaign's spend
                             past AMOUNT; run again with a higher one to go on
  --max-failure-rate F       pause (exit 4) when more than F of the latest 200 delivery
                             outcomes failed (default 0.3; 0: never); \`campaign resume\` goes on
  --frequency-cap N/PERIOD   a row whose number this ledger sent N messages within PERIOD
                             (any campaign; 1/24h, 3/7d) ends capped, never sent
  --retries N                retries of a batch after a 5xx or a lost connection (default: 7)
  --resend-uncertain         send again the rows whose earlier answer was lost (never those a
                             delivery receipt has shown were sent)
  --receipt-url URL          delivery receipts go to this URL: a running \`cloudtel worker\`
                             sharing --db ({publicUrl}/callbacks/{secret}/receipts) stores them
  --reply-url URL            replies go to this URL ({publicUrl}/callbacks/{secret}/replies);
                             the provider calls it only for messages from a leased number
  --json                     JSON lines even on a terminal (piped, they are the default)
  --base-url URL, --account-sid SID, --auth-token TOKEN
                             default: CLOUDTEL_BASE_URL, CLOUDTEL_ACCOUNT_SID, CLOUDTEL_AUTH_TOKEN
  -h, --help                 this help
`;

const EXIT_CODES = `Exit codes: 0 every row accounted for; 1 fatal error; 2 bad usage; 3 finished with uncertain
rows; 4 paused, cancelled or waiting; 130 interrupted (run again to resume).
`;

export const RUN_USAGE = `Usage: cloudtel campaign run --csv FILE --property SID --text TEMPLATE [options]
       cloudtel campaign run --config FILE --name NAME

The second sends one run of the worker config's campaign NAME now, as its cron would:
named NAME-YYYYMMDDTHHMMSSZ, with the config's settings and ledger, receipts and replies
going to the config's worker. Refused while a run of it is not finished.

Sends one SMS a CSV row, paced, crash-safe, never twice. Run the same command again to
resume: the ledger (--db) remembers every row.

Output: on a terminal, a progress bar and a summary for a person. Piped or redirected (into
a file, jq or another program), or with --json, it is JSON lines on stdout instead: one
object a line (each event, then the summary), for a script to read.

${RUN_OPTIONS}
${EXIT_CODES}`;

export const STATUS_USAGE = `Usage: cloudtel campaign status --name NAME [--db FILE|URL] [--json]

How far a campaign has got: rows by state, receipts, whether a run is active.

  --name NAME    the campaign
  --db FILE|URL  the ledger (default: CLOUDTEL_DB, else cloudtel.db)
  --json         the figures as JSON
  -h, --help     this help
`;

export const REPORT_USAGE = `Usage: cloudtel campaign report --name NAME [--db FILE|URL] [--html FILE] [--json] [--price-per-segment N] [--currency C]

A campaign's report: what was sent, what reached people, what it cost.

  --name NAME              the campaign
  --db FILE|URL            the ledger (default: CLOUDTEL_DB, else cloudtel.db)
  --html FILE              write a page with charts, readable on a desktop and a phone
  --json                   the figures as JSON
  --price-per-segment N    the price of one segment, for the cost
  --currency C             the price's unit, shown with the cost (AUD, $); without it the
                           cost is a bare number in the unit of --price-per-segment
  -h, --help               this help

Times are shown in the campaign's --time-zone, else this machine's zone, named beside them.
`;

const controlUsage = (
	action: string,
	what: string,
) => `Usage: cloudtel campaign ${action} --name NAME [--db FILE|URL]

${what}

  --name NAME    the campaign
  --db FILE|URL  the ledger (default: CLOUDTEL_DB, else cloudtel.db)
  -h, --help     this help
`;

export const CONTROL_USAGE: Record<'pause' | 'resume' | 'cancel' | 'delete', string> = {
	pause: controlUsage(
		'pause',
		'Stops sending after the batches in flight; a run active on it waits.',
	),
	resume: controlUsage('resume', 'Lets a paused campaign send again.'),
	cancel: controlUsage(
		'cancel',
		'Stops the campaign for good: its rows not yet sent will never be.',
	),
	delete: `Usage: cloudtel campaign delete --name NAME [--db FILE|URL] [--force] [--purge]

Forgets a campaign and frees its name. A campaign that has sent needs --force: a new
campaign of that name could then send the same rows again.

  --name NAME    the campaign
  --db FILE|URL  the ledger (default: CLOUDTEL_DB, else cloudtel.db)
  --force        delete it even though it has sent
  --purge        also its stored receipts and replies, and rewrite the database so no
                 byte of it is left (SQLite: VACUUM; Postgres: the tables vacuumed)
  -h, --help     this help
`,
};

export const CAMPAIGN_USAGE = `Usage: cloudtel campaign COMMAND [options]

Commands:
  run       send a CSV file's rows (--dry-run: preview, send nothing)
            or a worker config campaign's run now (--config FILE --name NAME)
  retry-failed  a new campaign of a campaign's rows that failed for a passing reason
  status    how far a campaign has got
  evidence  one line per recipient proving consent, sends, receipts and opt-outs
  report    what a campaign sent and what it cost (text, --json or --html)
  pause     stop sending after the batches in flight
  resume    let a paused campaign send again
  cancel    stop a campaign for good
  delete    forget a campaign, freeing its name (--force when it has sent)

\`cloudtel campaign COMMAND --help\` tells what each takes.
`;

export const CONTACT_USAGE = `Usage: cloudtel contact show NUMBER [--db FILE|URL] [--json] [--time-zone ZONE]
       cloudtel contact export NUMBER [--db FILE|URL]
       cloudtel contact forget NUMBER [--db FILE|URL]

show     every message, receipt, reply, opt-out and opt-in of a number, with its time
         and campaign, across the ledger
export   the same as JSON, for a subject-access request: every message with its text,
         receipt, reply, consent, opt-out, opt-in and confirmation the ledger holds
forget   erase a number's messages and rows across campaigns (an erasure request), and
         blank it in the pages of API campaigns not ended; a one-way hash of it is kept,
         so an opt-out still holds

  --db FILE|URL          the ledger (default: CLOUDTEL_DB, else cloudtel.db)
  --json                 (show) as JSON
  --time-zone ZONE       (show) times in this IANA zone (default: UTC)
  --default-country CC   country of a NUMBER written without +
  -h, --help             this help
`;

export const EVIDENCE_USAGE = `Usage: cloudtel campaign evidence --name NAME --out FILE [--db FILE|URL] [--json]

Writes the proof of a campaign, one line per recipient: the number, where its consent
came from and when, the text as sent, when it was handed to the provider, its MessageSid,
the receipt's status and time, the replies, the opt-out that followed (when its reply
came, the word, when the suppression was in force, the confirmation) and
sent_after_opt_out, YES for a message handed over while its number was opted out.
Times are ISO 8601, UTC.

  --name NAME    the campaign (a cron run: its run name)
  --out FILE     where to write it (CSV; with --json, JSON)
  --db FILE|URL  the ledger (default: CLOUDTEL_DB, else cloudtel.db)
  --json         JSON instead of CSV
  -h, --help     this help
`;

export const OPTOUTS_USAGE = `Usage: cloudtel optouts review [--db FILE|URL] [--json]
       cloudtel optouts review --accept NUMBER | --reject NUMBER [--db FILE|URL]

review   the replies that asked to stop in words of their own ("remove me"), held while
         the worker config says optOut: { reasonableMeans: review }; --accept opts the
         number out, --reject keeps it texted; both go into its consent trail

  --db FILE|URL          the ledger (default: CLOUDTEL_DB, else cloudtel.db)
  --json                 the list as JSON
  --default-country CC   country of a NUMBER written without +
  -h, --help             this help
`;

export const USAGE = `cloudtel: bulk SMS campaigns from CSV files, paced, crash-safe, never sent twice.

Usage:
  cloudtel campaign run --csv FILE --property SID --text TEMPLATE [options]
  cloudtel campaign status --db FILE --name NAME [--json]
  cloudtel campaign retry-failed --db FILE --name NAME --as NEW [--error-codes A,B]
                         a new campaign of NAME's rows whose delivery failed for a passing reason
  cloudtel campaign report --db FILE --name NAME [--html FILE] [--json] [--price-per-segment N]
  cloudtel campaign pause|resume|cancel --db FILE --name NAME
  cloudtel campaign delete --db FILE --name NAME [--force] [--purge]
                         forget a campaign, freeing its name; --force when it has sent
  cloudtel contact show|forget NUMBER [--db FILE] [--json]
                         a number's record across campaigns; erase it on request
  cloudtel optouts review [--accept|--reject NUMBER]
                         replies held for a person to decide whether they opted out
  cloudtel demo          run a demo campaign against a sandbox started on the spot
  cloudtel sandbox ...   start the local sandbox of the provider
  cloudtel worker        the daemon: cron campaigns, receipts, replies, opt-outs
  cloudtel events list|replay --db FILE|URL ...
                         the delivery log of every POST out; send failed or dead ones again
  cloudtel secret new    print a fresh whsec_ secret for signing.secret (Standard Webhooks)
  cloudtel --version     the version

Every command answers --help (or -h) with what it takes.

campaign run options:
${RUN_OPTIONS}
${EXIT_CODES}`;

export const SECRET_USAGE = `Usage: cloudtel secret new

Prints a fresh Standard Webhooks secret (whsec_ and 32 random bytes in base64), for the
config's signing.secret and the CloudTel Trigger's Signing Secret.
`;

export const EVENTS_USAGE = `Usage: cloudtel events list --db FILE|URL [--failed|--dead] [--since TIME] [--json]
       cloudtel events replay --db FILE|URL --since TIME [--type TYPE] [--destination URL] [--dead-only] [--json]

The delivery log of every POST the worker sends (events, forwards to n8n, reply posts),
and sending again those that failed, or went dead past events.maxAge, under their own
webhook-id, so a receiver that de-duplicates sees each once. A replay puts them back in
the worker's outbox: the running worker sends them within 30 s, or the next one to start.

  --db FILE|URL        the worker's database (default: CLOUDTEL_DB, else cloudtel.db)
  --failed, --dead     list only those failed (dead included) or dead
  --since TIME         queued since: an ISO time, or a duration back from now (2h, 3d)
  --type TYPE          replay only this type (campaign.finished, reply, receipt, ...)
  --destination URL    replay only those to this URL (or events, n8n, post)
  --dead-only          replay only dead deliveries, not those that failed for good
  --json               one JSON document
`;

export const RETRY_USAGE = `Usage: cloudtel campaign retry-failed --db FILE|URL --name NAME --as NEW [options]

Starts campaign NEW of NAME's rows whose delivery receipt failed with a code worth retrying,
each sent the text it was sent before, with NAME's settings. Never a number that opted out,
is suppressed, or was delivered since. Its list is written beside the ledger as NEW.retry.csv;
run the same command again to resume NEW.

  --error-codes A,B      the receipt ErrorCodes to retry (default: UNDELIVERABLE)
  --list FILE            where to write NEW's list (default: NEW.retry.csv beside a SQLite
                         ledger, in the working folder for Postgres)
  --rate, --batch-size, --concurrency, --receipt-url, --reply-url, --base-url,
  --account-sid, --auth-token, --out, --threads, --retries, --price-per-segment,
  --max-cost, --daily-max-cost, --json
                         as for \`campaign run\`
  -h, --help             this help
`;

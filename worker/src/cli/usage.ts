export const USAGE = `cloudtel: bulk SMS campaigns from CSV files, paced, crash-safe, never sent twice.

Usage:
  cloudtel campaign run --csv FILE --property SID --text TEMPLATE [options]
  cloudtel campaign status --db FILE --name NAME [--json]
  cloudtel campaign report --db FILE --name NAME [--html FILE] [--json] [--price-per-segment N]
  cloudtel campaign pause|resume|cancel --db FILE --name NAME
  cloudtel campaign delete --db FILE --name NAME [--force]
                         forget a campaign, freeing its name; --force when it has sent
  cloudtel demo          run a demo campaign against a sandbox started on the spot
  cloudtel sandbox ...   start the local sandbox of the provider (--help for its flags)
  cloudtel worker        the daemon: cron campaigns, receipts, replies, opt-outs

campaign run options:
  --csv FILE                 the recipients; the first line is the header
  --property SID             the PropertySid to send from
  --text TEMPLATE            the message; {{Column}} is replaced by that column's value
  --from SENDER              E.164 number or alphanumeric ID; omitted: a leased number
  --to-column NAME           the column with the numbers (default: To, Phone or Mobile)
  --default-country CC       country of numbers written without +, such as AU
  --name NAME                campaign name, in every ExternalId (default: the CSV's name)
  --db FILE|URL              the ledger: a SQLite file or a postgres:// URL
                             (default: CLOUDTEL_DB, else cloudtel.db)
  --rate N                   messages per second, 0 for no limit (default: 100)
  --batch-size N             messages per BatchMessages request, at most 1000 (default: 1000)
  --concurrency N            requests in flight (default: 4)
  --schedule ISO-TIME        send at that time (the provider holds messages up to 14 days ahead)
  --send-window HH:MM-HH:MM  sending hours: messages go out only between these local times
  --time-zone ZONE           zone of the send window: Windows ID or IANA name
  --time-zone-column NAME    a per-row zone, overriding --time-zone
  --delimiter C              the CSV delimiter (default: read from the header)
  --out FILE                 write one CSV line per input row with its outcome
  --dry-run                  validate and count, send nothing
  --retries N                retries of a batch after a 5xx or a lost connection (default: 7)
  --resend-uncertain         send again the rows whose earlier answer was lost (never those a
                             delivery receipt has shown were sent)
  --receipt-url URL          delivery receipts go to this URL: a running \`cloudtel worker\`
                             sharing --db ({publicUrl}/callbacks/{secret}/receipts) stores them
  --reply-url URL            replies go to this URL ({publicUrl}/callbacks/{secret}/replies);
                             the provider calls it only for messages from a leased number
  --json                     JSON log lines even on a terminal
  --base-url URL, --account-sid SID, --auth-token TOKEN
                             default: CLOUDTEL_BASE_URL, CLOUDTEL_ACCOUNT_SID, CLOUDTEL_AUTH_TOKEN

Exit codes: 0 every row accounted for; 1 fatal error; 2 bad usage; 3 finished with uncertain
rows; 4 paused, cancelled or waiting; 130 interrupted (run again to resume).
`;

-- name: LockSellerImports :exec
-- Serialises the creation of one seller's CSV imports, so the limit of
-- imports in progress holds under concurrent requests.
SELECT pg_advisory_xact_lock(hashtextextended('tenure-csv-imports:' || sqlc.arg(seller_id)::uuid::text, 0));

-- name: TryLockSellerImportRuns :one
-- Takes the session lock that one run of a seller's CSV imports holds
-- while it stores rows, if no other run holds it. A run writes its chunks
-- side by side under the catalog lock shared (LockSellerCatalogForImport),
-- which this lock keeps from other runs; as a session's lock it goes with
-- the connection of a worker that dies.
SELECT pg_try_advisory_lock(hashtextextended('tenure-csv-import-runs:' || sqlc.arg(seller_id)::uuid::text, 0));

-- name: CountActiveCSVImports :one
SELECT count(*) FROM csv_imports
WHERE seller_id = $1 AND status IN ('pending', 'queued', 'running');

-- name: CreateCSVImport :exec
INSERT INTO csv_imports (id, seller_id, filename, object_path)
VALUES ($1, $2, $3, $4);

-- name: GetCSVImport :one
SELECT * FROM csv_imports WHERE id = $1;

-- name: GetSellerCSVImport :one
SELECT * FROM csv_imports WHERE seller_id = $1 AND id = $2;

-- name: ClaimCSVUpload :one
-- Starts receiving the upload of a pending job whose link has not been
-- used; no row when it has been (or the job is no longer pending).
UPDATE csv_imports SET upload_started_at = now(), updated_at = now()
WHERE id = $1 AND status = 'pending' AND upload_started_at IS NULL
RETURNING *;

-- name: ReleaseCSVUpload :exec
-- Gives the link back after an upload that could not be stored.
UPDATE csv_imports SET upload_started_at = NULL, updated_at = now()
WHERE id = $1 AND uploaded_at IS NULL;

-- name: FinishCSVUpload :exec
UPDATE csv_imports SET uploaded_at = now(), updated_at = now() WHERE id = $1;

-- name: SetCSVImportStatus :one
-- Moves a job to a status; a finished job (completed, failed, cancelled)
-- keeps its status. error is kept unless a non-empty one is given.
UPDATE csv_imports
SET status = sqlc.arg(status),
    error = CASE WHEN sqlc.arg(error)::text = '' THEN error ELSE sqlc.arg(error)::text END,
    updated_at = now()
WHERE id = sqlc.arg(id) AND status NOT IN ('completed', 'failed', 'cancelled')
RETURNING *;

-- name: RecordCSVImportChunk :one
-- Adds a chunk's counts to the job, in the chunk's transaction.
UPDATE csv_imports
SET processed = processed + sqlc.arg(processed),
    succeeded = succeeded + sqlc.arg(succeeded),
    failed = failed + sqlc.arg(failed),
    supported = supported + sqlc.arg(supported),
    unsupported = unsupported + sqlc.arg(unsupported),
    to_be_reviewed = to_be_reviewed + sqlc.arg(to_be_reviewed),
    updated_at = now()
WHERE id = sqlc.arg(id)
RETURNING *;

-- name: SetCSVImportErrorsPath :exec
UPDATE csv_imports SET errors_path = $2, updated_at = now() WHERE id = $1;

-- name: ExpireCSVImport :one
-- Fails a pending job whose upload link expired unused; with force, also
-- one whose upload started but never finished. A job whose file arrived
-- is left alone: its workflow is about to hear of it.
UPDATE csv_imports SET status = 'failed', error = sqlc.arg(error), updated_at = now()
WHERE id = sqlc.arg(id) AND status = 'pending' AND uploaded_at IS NULL
  AND (upload_started_at IS NULL OR sqlc.arg(force)::boolean)
RETURNING *;

-- name: LockCSVImportProgress :one
-- Locks a job's row for a chunk's transaction and says how many rows it
-- counts, so two runs of one job store their chunks one after the other.
SELECT processed FROM csv_imports WHERE id = $1 FOR UPDATE;

-- name: RelaxCommitDurability :exec
-- Lets the current transaction commit without waiting for its WAL flush.
SET LOCAL synchronous_commit = off;

-- name: CountCSVImportQueue :many
-- The CSV import queue: jobs pending an upload, queued or running, per
-- status (over the partial index of active jobs).
SELECT status, count(*) AS jobs FROM csv_imports
WHERE status IN ('pending', 'queued', 'running')
GROUP BY status;

-- name: SetCSVImportFileRows :exec
-- Keeps how many records the portal counted in a job's file.
UPDATE csv_imports SET file_rows = $2 WHERE id = $1 AND seller_id = $3;

-- name: ListSellerCSVImportsBefore :many
-- A page of a seller's imports, newest first, before the import
-- (before_at, before_id), over csv_imports_seller_created_idx.
SELECT * FROM csv_imports
WHERE seller_id = sqlc.arg(seller_id)
  AND (created_at, id) < (sqlc.arg(before_at)::timestamptz, sqlc.arg(before_id)::uuid)
ORDER BY created_at DESC, id DESC
LIMIT sqlc.arg(page_size)::int;

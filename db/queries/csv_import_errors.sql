-- name: CopyCSVImportErrors :copyfrom
INSERT INTO csv_import_errors (import_id, line, reference, column_name, reason)
VALUES ($1, $2, $3, $4, $5);

-- name: CSVImportErrorsAfter :many
-- A page of a job's failed rows in file order, for writing the error CSV
-- without holding them all.
SELECT line, reference, column_name, reason FROM csv_import_errors
WHERE import_id = $1 AND line > $2
ORDER BY line
LIMIT $3;

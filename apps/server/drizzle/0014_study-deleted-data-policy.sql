-- Studies created before the setting keep data deleted at the source (the default); written into
-- each row so every reader of the settings, SQL or not, sees the key.
UPDATE "studies" SET "settings" = "settings" || '{"removeDataDeletedAtSource": false}'::jsonb
  WHERE NOT ("settings" ? 'removeDataDeletedAtSource');

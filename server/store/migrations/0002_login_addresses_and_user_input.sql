-- fetch_api_key limits failures per client address as well as per username;
-- rows from before this column count for their username only.
ALTER TABLE failed_logins ADD COLUMN client_address text;
CREATE INDEX failed_logins_address_idx ON failed_logins (client_address, attempted_at) WHERE client_address IS NOT NULL;

-- Last time a client reported real use (presence new_user_input), for usage statistics.
ALTER TABLE users ADD COLUMN last_user_input_at bigint;

-- The key that signed access tokens when JWT_SECRET is not set was kept here, and so in every backup:
-- with a session's id it signed a token for that session. Each instance now signs with a key pair made in
-- its memory and publishes only the public half (access_token_keys). Tokens signed with the old key stop
-- working at once; browsers get new ones with their refresh cookie, as when a token expires.
DROP TABLE "server_secrets" CASCADE;
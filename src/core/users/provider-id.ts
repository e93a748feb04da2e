/** A Discord id (a snowflake) as the API's schemas and the CLI's arguments accept it. */
export const PROVIDER_ID_PATTERN = '^[0-9]{1,20}$';

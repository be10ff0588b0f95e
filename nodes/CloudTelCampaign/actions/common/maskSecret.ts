const SECRET_PARAMETER = /([?&](?:secret|token|api[_-]?key|key|sig|signature)=)[^&#]*/gi;

/**
 * A URL as the output shows it: the value of a secret in its query (the trigger's
 * ?secret=) replaced by ***, since an execution's data is seen by whoever can open it.
 */
export function maskSecret(value: unknown): unknown {
	return typeof value === 'string' ? value.replace(SECRET_PARAMETER, '$1***') : value;
}

/**
 * An error of one of kube's CEL library functions (quantity, ip, cidr), whose text is kube's own
 * ("IP Address ... parse error ...", "quantities must match ..."): the rule evaluation error
 * shows it as is, where cel-js's own messages are lower-cased to read as cel-go's.
 */
export class KubeLibraryError extends Error {}

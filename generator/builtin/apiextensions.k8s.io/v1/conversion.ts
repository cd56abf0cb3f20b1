// Built-in: the conversion settings of apiextensions.k8s.io/v1 CustomResourceDefinition.
import type { int32 } from 'kgen';

/** CustomResourceConversion describes how to convert different versions of a CR. */
export interface CustomResourceConversion {
  /**
   * strategy specifies how custom resources are converted between versions. Allowed values are:
   * - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource.
   * - `"Webhook"`: API Server will call to an external webhook to do the conversion. Additional information
   *   is needed for this option. This requires spec.preserveUnknownFields to be false, and spec.conversion.webhook to be set.
   * @kgen:protobuf 1
   */
  strategy: string;
  /**
   * webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.
   * @kgen:protobuf 2
   */
  webhook?: WebhookConversion;
}

/** WebhookConversion describes how to call a conversion webhook */
export interface WebhookConversion {
  /**
   * clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.
   * @kgen:protobuf 2
   */
  clientConfig?: WebhookClientConfig;
  /**
   * conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the
   * Webhook expects. The API server will use the first version in the list which it supports.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  conversionReviewVersions: string[];
}

/** WebhookClientConfig contains the information to make a TLS connection with the webhook. */
export interface WebhookClientConfig {
  /**
   * url gives the location of the webhook, in standard URL form (`scheme://host:port/path`).
   * Exactly one of `url` or `service` must be specified.
   * @kgen:protobuf 3
   */
  url?: string;
  /**
   * service is a reference to the service for this webhook. Either service or url must be specified.
   * @kgen:protobuf 1
   */
  service?: ServiceReference;
  /**
   * caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server
   * certificate. If unspecified, system trust roots on the apiserver are used.
   * @format byte
   * @kgen:protobuf 2
   */
  caBundle?: string;
}

/** ServiceReference holds a reference to Service.legacy.k8s.io */
export interface ServiceReference {
  /**
   * namespace is the namespace of the service.
   * @kgen:protobuf 1
   */
  namespace: string;
  /**
   * name is the name of the service.
   * @kgen:protobuf 2
   */
  name: string;
  /**
   * path is an optional URL path at which the webhook will be contacted.
   * @kgen:protobuf 3
   */
  path?: string;
  /**
   * port is an optional service port at which the webhook will be contacted. `port` should be a
   * valid port number (1-65535, inclusive). Defaults to 443 for backward compatibility.
   * @default 443
   * @kgen:protobuf 4
   */
  port?: int32;
}

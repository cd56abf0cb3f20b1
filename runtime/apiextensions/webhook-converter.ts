/**
 * The `Webhook` conversion strategy's converter (apiextensions-apiserver webhookConverter):
 * objects not yet in the desired version are POSTed to the CRD's conversion webhook in one
 * ConversionReview; the answer is checked (conversion-review.ts) and the converted objects put
 * back in place. Objects already in the desired version are never sent, and when none needs
 * converting the webhook is not called at all.
 *
 * Failures are what kube answers: a metav1.Status with code 500 and the converter's message
 * (`conversion webhook for example.com/v1, Kind=Widget failed: Post "https://…?timeout=30s": …`).
 * kube returns the converter's plain error, which ErrorToAPIStatus turns into code 500 with
 * reason Unknown (kubectl prints `Error from server: conversion webhook for …`), so the Status
 * has no reason and the message carries no "Internal error occurred:" prefix.
 */
import { randomUUID } from 'node:crypto';
import { callWebhook, type ServiceResolver, type WebhookCall } from '../admission/webhook/client.js';
import type { WebhookClientConfig } from '../admission/webhook/types.js';
import type { KubeObject } from '../api/meta.js';
import { StatusError } from '../api/status.js';
import { checkConvertedObjects, convertedObjectsFromResponse, newConversionReview, reviewVersionFor } from './conversion-review.js';

/** kube's webhook client timeout for conversion webhooks (the `?timeout=30s` of the call). */
export const CONVERSION_TIMEOUT_SECONDS = 30;

/** spec.conversion.webhook of a CRD. */
export interface WebhookConversion {
  clientConfig?: WebhookClientConfig;
  conversionReviewVersions?: string[];
}

/** What a conversion call converts, for kube's messages. */
export interface ConversionInput {
  /** `example.com/v1, Kind=Widget` (or `…, Kind=WidgetList` for a list). */
  gvk: string;
  /** Whether the objects are a list's items (kube's list wording: "at index N"). */
  list: boolean;
}

export interface WebhookConverterOptions {
  timeoutSeconds?: number;
  /** The HTTP call; tests may substitute it. */
  call?: (call: WebhookCall) => Promise<unknown>;
  /** Resolves clientConfig.service (through the Service's Endpoints). */
  resolveService?: ServiceResolver;
}

/** The Status of a failed conversion: code 500, reason Unknown (omitted), kube's message. */
export function conversionFailure(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

export class WebhookConverter {
  private readonly timeoutSeconds: number;
  private readonly call: (call: WebhookCall) => Promise<unknown>;
  private readonly resolveService?: ServiceResolver;

  constructor(
    private readonly webhook: WebhookConversion | undefined,
    options: WebhookConverterOptions = {},
  ) {
    this.timeoutSeconds = options.timeoutSeconds ?? CONVERSION_TIMEOUT_SECONDS;
    this.call = options.call ?? callWebhook;
    this.resolveService = options.resolveService;
  }

  /**
   * `objects` in `desiredAPIVersion`, in the same order; those already in it are returned as
   * they are (the same references). Throws a conversionFailure StatusError.
   */
  async convert(objects: readonly KubeObject[], desiredAPIVersion: string, input: ConversionInput): Promise<KubeObject[]> {
    const sent = objects.filter((o) => o.apiVersion !== desiredAPIVersion);
    if (sent.length === 0) return objects as KubeObject[];
    let version;
    try {
      version = reviewVersionFor(this.webhook?.conversionReviewVersions);
    } catch (err) {
      throw conversionFailure((err as Error).message);
    }
    const uid = randomUUID();
    const review = newConversionReview(version, uid, desiredAPIVersion, sent);
    let answer: unknown;
    try {
      answer = await this.post(review);
    } catch (err) {
      throw conversionFailure(`conversion webhook for ${input.gvk} failed: ${(err as Error).message.replace(/^failed to call webhook: /, '')}`);
    }
    let converted: KubeObject[];
    try {
      const returned = convertedObjectsFromResponse(version, uid, answer);
      converted = checkConvertedObjectsWrapped(sent, returned, desiredAPIVersion, input);
    } catch (err) {
      throw err instanceof StatusError ? err : conversionFailure(`conversion webhook for ${input.gvk} failed: ${(err as Error).message}`);
    }
    let next = 0;
    return objects.map((o) => (o.apiVersion === desiredAPIVersion ? o : converted[next++]!));
  }

  private async post(body: unknown): Promise<unknown> {
    const clientConfig = this.webhook?.clientConfig ?? {};
    return this.call({ clientConfig, resolveService: this.resolveService, timeoutSeconds: this.timeoutSeconds, body });
  }
}

/** checkConvertedObjects, its messages (already complete) as conversionFailure. */
function checkConvertedObjectsWrapped(sent: KubeObject[], returned: unknown[], desiredAPIVersion: string, input: ConversionInput): KubeObject[] {
  try {
    return checkConvertedObjects(sent, returned, desiredAPIVersion, input.gvk, input.list);
  } catch (err) {
    throw conversionFailure((err as Error).message);
  }
}

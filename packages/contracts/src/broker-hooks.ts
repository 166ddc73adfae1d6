import { z } from 'zod';

/*
 * EMQX 5's HTTP authentication and authorization: what the broker asks the server about a client
 * (docs/operations.md shows the broker's configuration) and what the server answers.
 */

export const BrokerAuthenticateBodySchema = z.object({
  clientid: z.string(),
  username: z.string().optional(),
  password: z.string().optional(),
  peerhost: z.string().optional(),
});

export const BrokerAuthorizeBodySchema = z.object({
  clientid: z.string(),
  username: z.string().optional(),
  topic: z.string(),
  action: z.enum(['publish', 'subscribe', 'all']),
});

export const BrokerAclRuleSchema = z.object({
  permission: z.enum(['allow', 'deny']),
  action: z.enum(['publish', 'subscribe', 'all']),
  topic: z.string(),
});
export type BrokerAclRule = z.infer<typeof BrokerAclRuleSchema>;

export const BrokerAuthenticateAnswerSchema = z.object({
  result: z.enum(['allow', 'deny']),
  is_superuser: z.boolean(),
  acl: z.array(BrokerAclRuleSchema).optional(),
});

export const BrokerAuthorizeAnswerSchema = z.object({ result: z.enum(['allow', 'deny']) });

// Who plays: inside Discord (the URL has frame_id) the Embedded App SDK asks Discord for a
// code, the server turns it into a session; outside (the sandbox, a plain browser) the
// SDK's mock stands in, and the server's own login reads ?user_id=.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

export interface Config {
  client_id: string | null;
  protocol: number;
  cards?: string; // the cards' pictures' version
}

export class LoginError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The member declined to let the Activity know who they are (Discord's consent, cancelled
 *  or denied): nothing is asked again until they press to try again. */
export class ConsentDeclined extends Error {}

type Sdk = DiscordSDK | DiscordSDKMock;

export class Login {
  private sdk: Sdk | null = null;
  private readonly inDiscord: boolean;

  constructor(
    private readonly config: Config,
    private readonly params: URLSearchParams,
  ) {
    this.inDiscord = params.has("frame_id") && config.client_id !== null;
  }

  /** A fresh session for the socket (a new code from Discord each time). */
  async session(): Promise<string> {
    const sdk = await this.ready();
    if (this.inDiscord) {
      const clientId = this.config.client_id as string;
      let code: string;
      try {
        ({ code } = await sdk.commands.authorize({
          client_id: clientId,
          response_type: "code",
          state: "",
          prompt: "none",
          scope: ["identify"],
        }));
      } catch (error) {
        // cancelled or access denied: asking again at once would only ask again and again
        throw new ConsentDeclined(String((error as { message?: unknown })?.message ?? error));
      }
      const answer = await postToken({ code, instance_id: sdk.instanceId });
      await sdk.commands.authenticate({ access_token: answer.access_token });
      return answer.session;
    }
    const answer = await postToken({
      code: "mock",
      instance_id: this.params.get("instance_id") || sdk.instanceId,
      user_id: this.params.get("user_id") || undefined,
      key: this.params.get("key") || undefined, // the sandbox's: its addresses are its password
    });
    return answer.session;
  }

  private async ready(): Promise<Sdk> {
    if (this.sdk === null) {
      const clientId = this.config.client_id ?? "0";
      const sdk: Sdk = this.inDiscord
        ? new DiscordSDK(clientId)
        : new DiscordSDKMock(clientId, null, null, null);
      await sdk.ready();
      this.sdk = sdk;
    }
    return this.sdk;
  }
}

interface TokenAnswer {
  session: string;
  access_token: string;
  user: { id: string; name: string };
}

async function postToken(body: Record<string, unknown>): Promise<TokenAnswer> {
  const response = await fetch("/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data: Record<string, unknown> = {};
  try {
    data = await response.json();
  } catch {
    // an answer that is not JSON: its status says enough
  }
  if (!response.ok) {
    throw new LoginError(response.status, String(data.error ?? response.statusText));
  }
  return data as unknown as TokenAnswer;
}
